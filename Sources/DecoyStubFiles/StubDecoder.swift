import Decoy
import Foundation
import HTTPTypes

/// Reads one stub of a stub file: WireMock's mapping fields, plus Decoy's lists of responses,
/// conditional responses and failure rates.
struct StubDecoder {
    /// The fields of a stub.
    static let fields =
        [
            "id", "uuid", "name", "priority", "request", "response", "responses", "mode", "seed", "when", "else",
            "failureRate", "failure",
            "scenarioName", "requiredScenarioState", "newScenarioState", "postServeActions",
        ] + ignoredFields
    /// WireMock fields that change no answer: `metadata` is kept in the mapping for the admin API to
    /// search; WireMock writes the others into saved mappings.
    private static let ignoredFields = ["persistent", "metadata", "insertionIndex"]
    private static let modes = ["alternating", "random", "sequence"]

    var responses: ResponseDecoder
    /// The id the stub is registered under whatever it says, as when the admin API replaces one by its id.
    var assignedID: String?
    /// Reads `postServeActions`.
    var webhooks = WebhookDecoder()

    /// The stub `node` describes, compiled; `nil` after logging every problem in it.
    func decode(_ node: FileNode) -> StubDefinition? {
        guard let object = node.object(known: Self.fields) else { return nil }
        let id = id(object)
        let name = object["name"].map { $0.text() } ?? .some(nil)
        let priority = object["priority"].map { $0.integer() } ?? Route.defaultPriority
        let scenario = scenario(object)
        let decoded =
            object["request"].map(RequestDecoder.decode)
            ?? DecodedRoute(route: Route(method: nil, path: "/**"), pathNode: nil, matcherNodes: [])
        let registeredID = assignedID ?? (id ?? nil) ?? UUID().uuidString.lowercased()
        // Every answer says which stub gave it, as WireMock's do.
        var decoder = self
        decoder.responses.matchedStubFields = Self.matchedStubFields(id: registeredID, name: name ?? nil)
        decoder.responses.answersHEAD = (decoded ?? nil)?.route.method == .head
        let stub = decoder.failing(object, otherwise: decoder.stub(object))
        let webhooks = object["postServeActions"].map { self.webhooks.decode($0, responses: responses) } ?? []
        guard let id, let name, let priority, let scenario, var decoded, let stub, let webhooks else { return nil }
        decoded.route.priority = priority
        decoded.route.scenario = scenario
        decoded.route.webhooks = webhooks
        guard let compiled = decoded.compiled() else { return nil }
        let loaded = LoadedStub(
            file: node.log.file, line: node.mark?.line ?? 1, id: id, name: name, route: decoded.route, handle: nil)
        return StubDefinition(
            id: registeredID, pattern: compiled, stub: stub, loaded: loaded,
            members: JSONText.members(of: node.node, excluding: ["id", "uuid"]))
    }

    /// `Matched-Stub-Id` and, when the stub has a name, `Matched-Stub-Name`.
    private static func matchedStubFields(id: String, name: String?) -> HTTPFields {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .matchedStubID, value: id))
        if let name { fields.append(HTTPField(name: .matchedStubName, value: name)) }
        return fields
    }

    /// `id`, or WireMock's `uuid`; WireMock's clients send both, with the same value, and where
    /// they differ, WireMock takes the one written last. `.some(nil)` when the stub has neither.
    private func id(_ object: FileObject) -> String?? {
        let given = object.members.filter { $0.key == "id" || $0.key == "uuid" }
        let texts = given.compactMap { $0.value.text() }
        guard texts.count == given.count else { return .none }
        guard let last = texts.last else { return .some(nil) }
        if Set(texts).count > 1, let (key, node) = given.last {
            node.warning("id and uuid differ; the stub's id is its \(key), \"\(last)\", written last, as in WireMock")
        }
        return last
    }

    /// `scenarioName` with its states; `.some(nil)` when the stub is in no scenario.
    private func scenario(_ object: FileObject) -> Scenario?? {
        let required = object["requiredScenarioState"].map { $0.text() } ?? .some(nil)
        let new = object["newScenarioState"].map { $0.text() } ?? .some(nil)
        guard let nameNode = object["scenarioName"] else {
            if let (key, node) = object.oneOf(["requiredScenarioState", "newScenarioState"]) {
                node.error("\(key) needs scenarioName")
                return .none
            }
            return .some(nil)
        }
        guard let name = nameNode.text(), let required, let new else { return .none }
        return Scenario(name: name, requiredState: required, newState: new)
    }

    /// The stub kind the fields choose: a response, a list of responses with a mode, or a condition.
    private func stub(_ object: FileObject) -> (any Stub)? {
        let node = object.node
        guard let (key, value) = object.oneOf(["response", "responses"]) else {
            node.error("a stub needs \"response\" or \"responses\"")
            return nil
        }
        if key == "responses" {
            for (stray, strayNode) in object.members where stray == "when" || stray == "else" {
                strayNode.error("\(stray) goes with \"response\", not \"responses\"")
            }
            return list(value, object)
        }
        if let mode = object["mode"] { mode.error("mode goes with \"responses\", not \"response\"") }
        if let when = object["when"] { return conditional(when, then: value, object) }
        if let otherwise = object["else"] {
            otherwise.error("else needs \"when\"")
            return nil
        }
        // A template draws its random values from the stub's seed, checked with the failure rate's.
        return responses.decodeAnswer(value, seed: object["seed"]?.plainScalar.flatMap { UInt64($0) })
    }

    /// `responses` with its `mode` (and `seed`, for random): Decoy's alternating, random and sequence stubs.
    private func list(_ node: FileNode, _ object: FileObject) -> (any Stub)? {
        let decoded = node.list("a list of responses")?.map { responses.decode($0) }
        guard let modeNode = object["mode"] else {
            node.error("responses needs \"mode\": \(Self.modes.joined(separator: ", "))")
            return nil
        }
        let mode = modeNode.text().flatMap {
            Self.modes.contains($0) ? $0 : modeNode.expected(Self.modes.joined(separator: ", "))
        }
        let seed = seed(object)
        guard let decoded, let mode, let seed else { return nil }
        let stubs = decoded.compactMap { $0 }
        guard stubs.count == decoded.count else { return nil }
        guard let last = stubs.last else {
            node.error("responses needs at least one response")
            return nil
        }
        switch mode {
        case "alternating": return AlternatingStub(stubs)
        case "random": return RandomStub(stubs, seed: seed)
        default: return SequenceStub(first: stubs.dropLast(), then: last)
        }
    }

    /// `seed`, for a random mode or a failure rate; `.some(nil)` when there is none.
    private func seed(_ object: FileObject) -> UInt64?? {
        guard let node = object["seed"] else { return .some(nil) }
        return node.integer(in: 0...Int.max, "a whole number").map { UInt64($0) }
    }

    /// `failureRate` with its `failure` response around the stub the other fields make: Decoy's
    /// ``FailingStub``. A `seed` that neither this, a random mode nor a template uses is an error.
    private func failing(_ object: FileObject, otherwise stub: (any Stub)?) -> (any Stub)? {
        guard let rateNode = object["failureRate"] else {
            if let failure = object["failure"] { failure.error("failure needs \"failureRate\"") }
            if let seed = object["seed"], stub is TemplateStub, seed.integer(in: 0...Int.max, "a whole number") == nil {
                return nil
            }
            if let seed = object["seed"], !(stub is TemplateStub),
                object["responses"] == nil || object["mode"]?.text() != "random"
            {
                seed.error("seed goes with mode random, failureRate or a response template")
            }
            return object["failure"] == nil ? stub : nil
        }
        let rate = rateNode.number("a fraction from 0 to 1").flatMap {
            (0...1).contains($0) ? $0 : rateNode.expected("a fraction from 0 to 1")
        }
        guard let failureNode = object["failure"] else {
            rateNode.error("failureRate needs \"failure\", the response of a failing call")
            return nil
        }
        let failure = responses.decode(failureNode)
        guard let stub, let rate, let failure, let seed = seed(object) else { return nil }
        // Beside a random mode, the failures draw from a stream of their own: sharing its stream
        // would tie which response a call gets to whether it failed.
        let sharesSeed = object["mode"]?.text() == "random"
        return FailingStub(
            failing: rate, with: failure, otherwise: stub,
            seed: sharesSeed ? seed.map { $0 ^ StubFileFormat.failureSeedMix } : seed)
    }

    /// `when`, request matchers, choosing between `response` and `else`.
    private func conditional(_ when: FileNode, then: FileNode, _ object: FileObject) -> (any Stub)? {
        let conditions = when.object(known: RequestDecoder.matcherFields).map(RequestDecoder.matchers)
        let chosen = responses.decode(then)
        guard let otherwiseNode = object["else"] else {
            when.error("when needs \"else\", the response when the conditions do not hold")
            return nil
        }
        let otherwise = responses.decode(otherwiseNode)
        guard let conditions, let chosen, let otherwise else { return nil }
        do {
            return try ConditionalStub(when: conditions.map(\.matcher), then: chosen, else: otherwise)
        } catch {
            DecodedRoute.logInvalid(conditions.map { ($0.matcher, $0.node) })
            return nil
        }
    }
}
