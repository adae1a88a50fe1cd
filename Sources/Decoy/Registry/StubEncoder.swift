import Foundation
import HTTPTypes

/// Writes a route and a stub as the stub-file JSON that ``StubRegistry/addMapping(_:)`` reads
/// back: the inverse of the stub-file decoders, so that a stub made in code can be sent to a
/// server in another process. What has no stub-file form is refused, never approximated.
package enum StubEncoder {
    /// The mapping for `stub` on `route`: the request, its priority and scenario, and the stub's fields.
    package static func mapping(_ stub: any Stub, for route: Route) throws(DecoyError) -> [String: JSONValue] {
        var members = try self.stub(stub)
        members["request"] = try request(route)
        if route.priority != Route.defaultPriority { members["priority"] = .number(Double(route.priority)) }
        if let scenario = route.scenario {
            members["scenarioName"] = .string(scenario.name)
            if let required = scenario.requiredState { members["requiredScenarioState"] = .string(required) }
            if let new = scenario.newState { members["newScenarioState"] = .string(new) }
        }
        if !route.webhooks.isEmpty { members["postServeActions"] = try postServeActions(route.webhooks) }
        return members
    }

    /// The fields a stub adds to its mapping: `response`, `responses` with `mode`, `when`, `failureRate`.
    /// Each kind says its own (``StubFileEncodable``); a kind that does not is Swift code, refused.
    package static func stub(_ stub: any Stub) throws(DecoyError) -> [String: JSONValue] {
        try encodable(stub).stubFileMembers()
    }

    /// `stub` as one response of a list, a condition or a failure: a stub file has only responses there.
    package static func responseOnly(_ stub: any Stub, at place: String) throws(DecoyError) -> JSONValue {
        let response = try part(place) { () throws(DecoyError) in try encodable(stub).stubFileResponse() }
        guard let response else {
            throw DecoyError.cannotBeSent(
                stub: String(describing: type(of: stub)),
                reason: "a stub file has only a StubResponse or a TemplateStub here, not a stub of another kind"
            ).inside(place)
        }
        return response
    }

    /// `stubs` as a list of responses with its `mode`; `kind` names the stub in errors.
    package static func list(_ stubs: [any Stub], mode: String, of kind: String) throws(DecoyError) -> [String:
        JSONValue]
    {
        var responses: [JSONValue] = []
        for (index, stub) in stubs.enumerated() {
            responses.append(try responseOnly(stub, at: "\(kind) › responses[\(index)]"))
        }
        return ["responses": .array(responses), "mode": .string(mode)]
    }

    /// `stub` as a kind a stub file can hold.
    private static func encodable(_ stub: any Stub) throws(DecoyError) -> any StubFileEncodable {
        guard let encodable = stub as? any StubFileEncodable else {
            throw DecoyError.cannotBeSent(
                stub: String(describing: type(of: stub)),
                reason:
                    """
                    a custom Stub type is Swift code, which a stub file cannot hold; build it from StubResponse, \
                    AlternatingStub, RandomStub, SequenceStub, FailingStub and ConditionalStub(when: [matchers], …)
                    """
            )
        }
        return encodable
    }

    /// Runs `body`, naming `place` in what it throws.
    package static func part<Value>(_ place: String, _ body: () throws(DecoyError) -> Value)
        throws(DecoyError) -> Value
    {
        do {
            return try body()
        } catch {
            throw error.inside(place)
        }
    }

    /// A seed as a JSON number, which carries integers exactly up to 2^53.
    package static func number(_ seed: UInt64, of kind: String) throws(DecoyError) -> JSONValue {
        guard seed <= 1 << 53 else {
            throw DecoyError.cannotBeSent(
                stub: kind,
                reason: "its seed \(seed) is above 2^53, which a JSON number does not carry exactly; use a smaller seed"
            )
        }
        return .number(Double(seed))
    }

    // MARK: Responses

    /// A response's fields; the body as text when it is UTF-8, as base64 otherwise.
    package static func response(_ response: StubResponse) throws(DecoyError) -> JSONValue {
        guard (100...599).contains(response.status.code) else {
            throw DecoyError.cannotBeSent(
                stub: "its status \(response.status.code)", reason: "a stub file's status is from 100 to 599")
        }
        var members: [String: JSONValue] = ["status": .number(Double(response.status.code))]
        if !response.status.reasonPhrase.isEmpty { members["statusMessage"] = .string(response.status.reasonPhrase) }
        // Which registration answered is said by the registration, never by its mapping.
        let fields = response.headerFields.filter { $0.name != .matchedStubID && $0.name != .matchedStubName }
        if !fields.isEmpty { members["headers"] = headers(HTTPFields(fields)) }
        if let events = response.events {
            try self.events(events, into: &members)
        } else if !response.body.isEmpty {
            // Compared back, so that a byte-order mark Foundation strips is not lost.
            if let text = String(data: response.body, encoding: .utf8), Data(text.utf8) == response.body {
                members["body"] = .string(text)
            } else {
                members["base64Body"] = .string(response.body.base64EncodedString())
            }
        }
        if let problem = response.delay.problem { throw DecoyError.cannotBeSent(stub: "its delay", reason: problem) }
        if case .fixed(let duration) = response.delay {
            members["fixedDelayMilliseconds"] = try milliseconds(duration, "its delay")
        } else if let distribution = try distribution(response.delay, "its delay") {
            members["delayDistribution"] = .object(distribution)
        }
        switch response.throttle {
        case .none:
            break
        case .chunks(let count, let duration):
            guard count > 0 else {
                throw DecoyError.cannotBeSent(stub: "its throttle", reason: "a stub file's numberOfChunks is above 0")
            }
            members["chunkedDribbleDelay"] = .object([
                "numberOfChunks": .number(Double(count)), "totalDuration": try milliseconds(duration, "its throttle"),
            ])
        case .bytesPerSecond(let rate):
            guard rate > 0 else {
                throw DecoyError.cannotBeSent(stub: "its throttle", reason: "a stub file's bytesPerSecond is above 0")
            }
            members["bytesPerSecond"] = .number(Double(rate))
        }
        if let fault = response.fault {
            guard let name = StubFileFormat.faults.first(where: { $0.value == fault })?.key else {
                throw DecoyError.cannotBeSent(
                    stub: "its fault", reason: "\(fault) has no stub-file name; it exists only in-process")
            }
            members["fault"] = .string(name)
        }
        return .object(members)
    }

    /// An event stream's `events`, `eventsThen` and `eventsRepeat`, as stub files read them.
    private static func events(_ stream: EventStream, into members: inout [String: JSONValue])
        throws(DecoyError)
    {
        var events: [JSONValue] = []
        for event in stream.events {
            var fields: [String: JSONValue] = [:]
            for (name, value) in [
                ("id", event.id), ("event", event.event), ("data", event.data), ("comment", event.comment),
            ] {
                if let value { fields[name] = .string(value) }
            }
            if let retry = event.retry { fields["retry"] = try milliseconds(retry, "an event's retry") }
            fields.merge(try delay(event.delay, fixed: "delayMilliseconds", "an event's delay")) { $1 }
            events.append(.object(fields))
        }
        members["events"] = .array(events)
        switch stream.ending {
        case .close: break
        case .stayOpen: members["eventsThen"] = .string("stayOpen")
        case .fault(let fault):
            guard let name = StubFileFormat.faults.first(where: { $0.value == fault })?.key else {
                throw DecoyError.cannotBeSent(
                    stub: "its event stream's fault",
                    reason: "\(fault) has no stub-file name; it exists only in-process")
            }
            members["eventsThen"] = .string(name)
        }
        switch stream.repeats {
        case .times(1): break
        case .times(let count): members["eventsRepeat"] = .number(Double(count))
        case .forever: members["eventsRepeat"] = .string("forever")
        }
    }

    /// `delay` as the fields of an event or a message action: `fixed`'s name in milliseconds, or a
    /// `delayDistribution`; none for none. `part` names it in errors.
    package static func delay(_ delay: Delay, fixed: String, _ part: String) throws(DecoyError) -> [String: JSONValue] {
        if case .fixed(let duration) = delay { return [fixed: try milliseconds(duration, part)] }
        return try distribution(delay, part).map { ["delayDistribution": .object($0)] } ?? [:]
    }

    /// A uniform or lognormal `delay`'s members, as a `delayDistribution` is written; `nil` for
    /// none or a fixed one, which each place writes its own way. `part` names it in errors.
    static func distribution(_ delay: Delay, _ part: String) throws(DecoyError) -> [String: JSONValue]? {
        switch delay {
        case .none, .fixed:
            return nil
        case .uniform(let range):
            return [
                "type": .string("uniform"), "lower": try milliseconds(range.lowerBound, part),
                "upper": try milliseconds(range.upperBound, part),
            ]
        case .lognormal(let median, let sigma):
            return ["type": .string("lognormal"), "median": try milliseconds(median, part), "sigma": .number(sigma)]
        }
    }

    /// Each name once, in the order of its first field: a string, or a list for a repeated field.
    static func headers(_ fields: HTTPFields) -> JSONValue {
        var values: [String: [String]] = [:]
        for field in fields { values[field.name.rawName, default: []].append(field.value) }
        return .object(values.mapValues { $0.count == 1 ? .string($0[0]) : .array($0.map(JSONValue.string)) })
    }

    /// `duration` as a whole number of milliseconds, which is all stub files and the admin API take;
    /// `part` names it in the error.
    package static func milliseconds(_ duration: Duration, _ part: String) throws(DecoyError) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        guard duration >= .zero, attoseconds % perMillisecond == 0, seconds <= 1 << 43 else {
            throw DecoyError.cannotBeSent(
                stub: part,
                reason:
                    "\(duration) is not a whole number of milliseconds, which is all stub files and the admin API take")
        }
        return .number(Double(seconds * 1_000 + attoseconds / perMillisecond))
    }

    // MARK: Routes and matchers

    /// A route as a stub's `request`: the method, the path by its syntax, and the matchers.
    package static func request(_ route: Route) throws(DecoyError) -> JSONValue {
        var members: [String: JSONValue] = ["method": .string(route.method?.rawValue ?? "ANY")]
        let targets = route.matchers.compactMap { matcher -> ValueMatcher? in
            if case .target(let value) = matcher { value } else { nil }
        }
        switch targets.first {
        case nil:
            let key =
                switch route.pathSyntax {
                case .template: "urlPathTemplate"
                case .regularExpression: "urlPathPattern"
                case .exact: "urlPath"
                }
            members[key] = .string(route.path)
        case .equalTo(let target, caseInsensitive: false) where targets.count == 1 && pinsPath(of: route, to: target):
            members["url"] = .string(target)
        case .matches(let pattern) where targets.count == 1 && route.path == "/**" && route.pathSyntax == .template:
            members["urlPattern"] = .string(pattern)
        default:
            throw DecoyError.cannotBeSent(
                stub: "the route \(route)",
                reason:
                    """
                    a stub file matches the target only as url (equal to it, with that path) or urlPattern (a \
                    regular expression, on any path), once
                    """
            )
        }
        try addMatchers(
            route.matchers.filter { if case .target = $0 { false } else { true } }, to: &members,
            of: "the route \(route)")
        return .object(members)
    }

    /// Whether `route` matches exactly the path of `target`, as WireMock's `url` reads back.
    private static func pinsPath(of route: Route, to target: String) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard (path.removingPercentEncoding ?? String(path)) == route.path else { return false }
        return route.pathSyntax == .exact
            || (route.pathSyntax == .template && !route.path.contains(where: { "{}*".contains($0) }))
    }

    /// `matchers` as `queryParameters`, `headers`, `cookies`, `formParameters` and `bodyPatterns` of `members`; a
    /// stub file has one matcher per name.
    static func addMatchers(
        _ matchers: [RequestMatcher], to members: inout [String: JSONValue], of owner: String
    ) throws(DecoyError) {
        var groups: [String: [String: JSONValue]] = [:]
        var bodies: [JSONValue] = []
        func put(_ field: String, _ name: String, _ value: ValueMatcher) throws(DecoyError) {
            guard groups[field]?[name] == nil else {
                throw DecoyError.cannotBeSent(
                    stub: owner, reason: "a stub file has one matcher per name in \(field); \"\(name)\" has two")
            }
            groups[field, default: [:]][name] = try matcher(value)
        }
        for matcher in matchers {
            switch matcher {
            case .query(let name, let value): try put("queryParameters", name, value)
            case .header(let name, let value): try put("headers", name.rawName, value)
            case .cookie(let name, let value): try put("cookies", name, value)
            case .formParameter(let name, let value): try put("formParameters", name, value)
            case .body(let value): bodies.append(try self.matcher(value))
            case .target:
                throw DecoyError.cannotBeSent(
                    stub: owner,
                    reason:
                        """
                        a stub file's when takes query parameters, headers, cookies, form parameters and the \
                        body, not the target
                        """
                )
            }
        }
        for (field, group) in groups { members[field] = .object(group) }
        if !bodies.isEmpty { members["bodyPatterns"] = .array(bodies) }
    }

    /// A value matcher as WireMock's matcher object, such as `{"equalTo": "2"}`.
    package static func matcher(_ matcher: ValueMatcher) throws(DecoyError) -> JSONValue {
        .object(try members(of: matcher))
    }

    private static func members(of matcher: ValueMatcher) throws(DecoyError) -> [String: JSONValue] {
        switch matcher {
        case .equalTo(let text, let caseInsensitive):
            return caseInsensitive
                ? ["equalTo": .string(text), "caseInsensitive": .bool(true)] : ["equalTo": .string(text)]
        case .contains(let text): return ["contains": .string(text)]
        case .doesNotContain(let text): return ["doesNotContain": .string(text)]
        case .matches(let pattern): return ["matches": .string(pattern)]
        case .doesNotMatch(let pattern): return ["doesNotMatch": .string(pattern)]
        case .present: return ["absent": .bool(false)]
        case .absent: return ["absent": .bool(true)]
        case .equalToJSON(let json, let ignoreArrayOrder, let ignoreExtraElements):
            var members: [String: JSONValue] = ["equalToJson": .string(json)]
            if ignoreArrayOrder { members["ignoreArrayOrder"] = .bool(true) }
            if ignoreExtraElements { members["ignoreExtraElements"] = .bool(true) }
            return members
        case .matchesJSONPath(let path, let selected): return try pathMatcher("matchesJsonPath", path, selected)
        case .matchesXPath(let path, let selected): return try pathMatcher("matchesXPath", path, selected)
        case .and(let matchers), .or(let matchers):
            let name = if case .and = matcher { "and" } else { "or" }
            guard !matchers.isEmpty else {
                throw DecoyError.cannotBeSent(
                    stub: "the matcher \(name)", reason: "a stub file's \(name) takes at least one matcher")
            }
            return [name: .array(try matchers.map { matcher throws(DecoyError) in try self.matcher(matcher) })]
        case .not(let inner): return ["not": try self.matcher(inner)]
        }
    }

    /// A JSON path or XPath: the path alone for any selection, otherwise with its matcher beside `expression`.
    private static func pathMatcher(_ name: String, _ path: String, _ selected: ValueMatcher) throws(DecoyError)
        -> [String: JSONValue]
    {
        guard selected != .present else { return [name: .string(path)] }
        return [
            name: .object(
                try members(of: selected).merging(["expression": .string(path)]) { _, expression in expression })
        ]
    }
}
