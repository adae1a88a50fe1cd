package import Decoy
import Foundation
import HTTPTypes

/// Checks stubs against OpenAPI documents: each stub's route against the operation whose path
/// template and method it stands for, and its answer against that operation's responses.
/// `decoy check --openapi` and ``Decoy/StubRegistry/drift(against:)`` both check through it.
package struct StubDriftCheck: Sendable {
    /// A stub to check: where it is, the route it answers, and the stub.
    package struct CheckedStub {
        /// `users.yaml:12`, or the route of a stub registered in code.
        package let place: String
        package let route: Route
        package let stub: any Stub

        package init(place: String, route: Route, stub: any Stub) {
            (self.place, self.route, self.stub) = (place, route, stub)
        }
    }

    /// One document, with what checking against it needs made once.
    private struct Document: Sendable {
        let spec: OpenAPISpec
        let validator: SchemaValidator
        let examples: SchemaExample
        let operations: [OpenAPIOperation]
        let templates: [PathTemplate]
        /// The operations by how many segments their paths have: a stub is held against those of
        /// its own count alone, a few of the hundreds a large document has.
        let bySegmentCount: [Int: [Int]]
        /// The first segment of every path, to tell a stub of another API from a path that drifted.
        let firstSegments: Set<String>
    }

    private let documents: [Document]

    package init(specs: [OpenAPISpec]) {
        documents = specs.map { spec in
            let validator = SchemaValidator(document: spec.document)
            let templates = spec.operations.map { PathTemplate($0.path) }
            return Document(
                spec: spec, validator: validator, examples: SchemaExample(validator: validator),
                operations: spec.operations, templates: templates,
                bySegmentCount: Dictionary(grouping: templates.indices) { templates[$0].segments.count },
                firstSegments: Set(templates.compactMap { $0.segments.first.flatMap(Self.segmentText) }))
        }
    }

    /// Every drift of `stubs`, in their order.
    package func check(_ stubs: [CheckedStub]) -> StubDriftReport {
        var report = Findings()
        for stub in stubs { check(stub, into: &report) }
        return StubDriftReport(
            stubs: stubs.count, drift: report.drift, uncovered: report.uncovered, skipped: report.skipped)
    }

    private struct Findings {
        var drift: [StubDrift] = []
        var uncovered: [StubDrift] = []
        var skipped: [StubDrift] = []
    }

    // MARK: Finding the operation

    /// A segment of a stub's path: written out, or any value of one segment.
    private enum StubSegment: Equatable {
        case literal(String)
        case any
        /// Parameters inside a segment, from a route made from an OpenAPI path template.
        case template([PathTemplate.Part])
    }

    private func check(_ stub: CheckedStub, into report: inout Findings) {
        let context: Context
        switch operation(of: stub) {
        case .uncovered(let why):
            return report.uncovered.append(StubDrift(stub: stub.place, operation: nil, message: why))
        case .drift(let drift):
            return report.drift.append(drift)
        case .found(let found):
            context = found
        }
        report.drift += context.requestDrift()
        switch context.answer() {
        case .success(let response):
            report.drift += context.answerDrift(response, isHead: stub.route.method == .head)
        case .failure(let note):
            report.skipped.append(StubDrift(stub: stub.place, operation: context.name, message: note.text))
        }
    }

    /// How `response`, which a real server gave `request`, differs from what the request's
    /// operation declares: its status, content type, body and required header fields, as a
    /// stub's answer is checked. Nothing for a request no operation stands for, whose response
    /// the document says nothing of.
    package func drift(of response: StubResponse, to request: StubRequest) -> [StubDrift] {
        let stub = CheckedStub(
            place: "\(request.method) \(request.path)", route: Route(method: request.method, exactPath: request.path),
            stub: response)
        guard case .found(let context) = operation(of: stub) else { return [] }
        return context.answerDrift(response, isHead: request.method == .head)
    }

    /// ``drift(of:to:)`` as a registry checks what its proxies bring back with it: the validation
    /// proxy of `decoy serve --openapi` and `decoy record --openapi`.
    package var proxiedResponseCheck: ProxiedResponseCheck {
        { request, response in
            drift(of: response, to: request).map {
                ResponseDrift(
                    against: $0.operation, message: $0.message, pointer: $0.stubPointer,
                    documentPointer: $0.documentPointer)
            }
        }
    }

    /// The operation a stub stands for, or why none does.
    private enum Found {
        case found(Context)
        /// No document covers the stub at all.
        case uncovered(String)
        /// The stub's path or method is one the document it falls under lacks.
        case drift(StubDrift)
    }

    private func operation(of stub: CheckedStub) -> Found {
        let route = stub.route
        guard let method = route.method else {
            return .uncovered("\(route) answers every method; an operation has one")
        }
        let (segments, targetQuery) = Self.segments(of: route)
        guard let segments else {
            return .uncovered(
                "\(route) is not a path template or a path: a path given as a regular expression is not checked")
        }
        var matching: [(document: Int, operation: OpenAPIOperation, parameters: Int)] = []
        for index in documents.indices {
            for operation in documents[index].bySegmentCount[segments.count] ?? []
            where Self.path(segments, fits: documents[index].templates[operation]) {
                matching.append(
                    (
                        index, documents[index].operations[operation],
                        documents[index].templates[operation].parameterCount
                    ))
            }
        }
        // As OpenAPI matches a request: a concrete path wins over a templated one.
        guard let fewest = matching.map(\.parameters).min() else {
            let first = segments.first.flatMap { if case .literal(let text) = $0 { text } else { nil } }
            guard let first, let document = documents.first(where: { $0.firstSegments.contains(first) }) else {
                return .uncovered("no path of the OpenAPI documents covers \(route.path)")
            }
            return .drift(
                StubDrift(
                    stub: stub.place, operation: nil, message: "no operation has the path \(route.path)",
                    stubPointer: Self.pathField(of: route), documentPointer: "\(document.spec.source)#/paths"))
        }
        // Templates that differ only in their parameters' names are one path for a request.
        let candidates = matching.filter { $0.parameters == fewest }
        let path = candidates[0].operation.path
        guard
            let found = candidates.first(where: { $0.operation.method == method })
                ?? candidates.first(where: { method == .head && $0.operation.method == .get })
        else {
            let document = documents[candidates[0].document]
            let pointer = candidates[0].operation.pointer
            let item = pointer.lastIndex(of: "/").map { String(pointer[..<$0]) } ?? pointer
            return .drift(
                StubDrift(
                    stub: stub.place, operation: nil,
                    message:
                        "the path \(path) has no \(method) operation; it has "
                        + candidates.map { "\($0.operation.method)" }.joined(separator: ", "),
                    stubPointer: "/request/method", documentPointer: "\(document.spec.source)\(item)"))
        }
        return .found(
            Context(
                stub: stub, document: documents[found.document], operation: found.operation, segments: segments,
                targetQuery: targetQuery))
    }

    /// The segments of a route's path, `nil` for a path no template describes, and the query a
    /// `url` field's target gives.
    private static func segments(of route: Route) -> (segments: [StubSegment]?, query: [(String, String)]) {
        var query: [(String, String)] = []
        for case .target(.equalTo(let target, _)) in route.matchers {
            let items = URLComponents(string: target)?.queryItems ?? []
            query += items.map { ($0.name, $0.value ?? "") }
        }
        func split(_ path: String) -> [Substring] {
            path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
        }
        switch route.pathSyntax {
        case .exact:
            return (split(route.path).map { .literal($0.removingPercentEncoding ?? String($0)) }, query)
        case .template:
            var segments: [StubSegment] = []
            for segment in split(route.path) {
                if segment == "**" { return (nil, query) }
                if segment == "*" || (segment.hasPrefix("{") && segment.hasSuffix("}")) {
                    segments.append(.any)
                } else {
                    segments.append(.literal(segment.removingPercentEncoding ?? String(segment)))
                }
            }
            return (segments, query)
        case .regularExpression:
            guard let template = route.pathTemplate else { return (nil, query) }
            return (
                PathTemplate(template).segments.map { parts in
                    switch Self.whole(parts) {
                    case .literal(let text)?: .literal(text)
                    case .parameter?: .any
                    case nil: .template(parts)
                    }
                }, query
            )
        }
    }

    /// Whether the stub's segments stand for the operation's path: a written segment fits a
    /// parameter, a stub's parameter only an operation's.
    private static func path(_ segments: [StubSegment], fits template: PathTemplate) -> Bool {
        guard segments.count == template.segments.count else { return false }
        return zip(segments, template.segments).allSatisfy { segment, parts in
            switch (segment, Self.whole(parts)) {
            case (.literal(let text), .literal(let literal)?): text == literal
            case (.literal(let text), .parameter?): !text.isEmpty
            case (.literal(let text), nil): Self.text(text, fits: parts)
            case (.any, .parameter?): true
            case (.any, _): false
            case (.template(let stubParts), _):
                stubParts.count == parts.count
                    && zip(stubParts, parts).allSatisfy { pair in
                        switch pair {
                        case (.parameter, .parameter): true
                        case (.literal(let a), .literal(let b)): a == b
                        default: false
                        }
                    }
            }
        }
    }

    /// Whether `text` is a segment written as `parts`, parameters inside it: `AC1.json` for `{Sid}.json`.
    private static func text(_ text: String, fits parts: [PathTemplate.Part]) -> Bool {
        var rest = Substring(text)
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let literal):
                guard rest.hasPrefix(literal) else { return false }
                rest = rest.dropFirst(literal.count)
            case .parameter:
                // A parameter runs to the next literal's last occurrence, or to the end.
                guard case .literal(let next)? = parts.dropFirst(index + 1).first else {
                    if index == parts.count - 1 { return !rest.isEmpty }
                    continue
                }
                guard let range = rest.range(of: next, options: .backwards), range.lowerBound > rest.startIndex else {
                    return false
                }
                rest = rest[range.lowerBound...]
            }
        }
        return rest.isEmpty
    }

    /// The stub-file field the route's path is written in.
    static func pathField(of route: Route) -> String {
        switch route.pathSyntax {
        case .template: "/request/urlPathTemplate"
        case .regularExpression: "/request/urlPathPattern"
        case .exact:
            route.matchers.contains { if case .target = $0 { true } else { false } }
                ? "/request/url" : "/request/urlPath"
        }
    }

    private static func segmentText(_ parts: [PathTemplate.Part]) -> String? {
        if case .literal(let text)? = whole(parts) { text } else { nil }
    }

    /// The one part of a segment that is all literal or all parameter; `nil` for one that mixes them.
    static func whole(_ parts: [PathTemplate.Part]) -> PathTemplate.Part? {
        parts.count == 1 ? parts[0] : nil
    }

    // MARK: Checking a stub against its operation

    /// Why a stub's answer is not checked.
    private struct Note: Error {
        let text: String
    }

    /// One stub and the operation it stands for.
    private struct Context {
        let stub: CheckedStub
        let document: Document
        let operation: OpenAPIOperation
        let segments: [StubSegment]
        let targetQuery: [(String, String)]

        var name: String { operation.description }
        var source: String { document.spec.source }

        func drift(_ message: String, stub field: String?, at pointer: String?) -> StubDrift {
            StubDrift(
                stub: stub.place, operation: name, message: message, stubPointer: field,
                documentPointer: pointer.map { "\(source)\($0)" })
        }

        /// What the stub's request says that the operation does not accept.
        func requestDrift() -> [StubDrift] {
            var found: [StubDrift] = []
            let pathValues = self.pathValues()
            for parameter in operation.parameters {
                let named: [ValueMatcher]
                switch parameter.location {
                case .path:
                    guard let value = pathValues[parameter.name] else { continue }
                    named = [.equalTo(value)]
                case .query:
                    named =
                        stub.route.matchers.compactMap {
                            if case .query(let name, let matcher) = $0, name == parameter.name { matcher } else { nil }
                        } + targetQuery.filter { $0.0 == parameter.name }.map { .equalTo($0.1) }
                case .header:
                    named = stub.route.matchers.compactMap {
                        if case .header(let name, let matcher) = $0, name.canonicalName == parameter.name.lowercased() {
                            matcher
                        } else {
                            nil
                        }
                    }
                case .cookie:
                    continue
                }
                let place = "the \(parameter.location.rawValue) parameter \(parameter.name)"
                let field =
                    switch parameter.location {
                    case .path: StubDriftCheck.pathField(of: stub.route)
                    // A `url` field writes its query in the URL itself.
                    case .query where targetQuery.contains(where: { $0.0 == parameter.name }): "/request/url"
                    case .query: "/request/queryParameters/\(parameter.name.pointerEscaped)"
                    default: "/request/headers/\(parameter.name.pointerEscaped)"
                    }
                if parameter.required, named.isEmpty || named.contains(.absent) {
                    found.append(
                        drift(
                            named.isEmpty
                                ? "the stub's request does not name \(place), which the operation requires"
                                : "the stub's request leaves out \(place), which the operation requires",
                            stub: field, at: "\(parameter.pointer)/required"))
                }
                guard let schema = parameter.schema else { continue }
                for case .equalTo(let value, _) in named {
                    let parsed = document.validator.parameterValue(of: [value], parameter, schemaAt: schema)
                    for miss in document.validator.violations(of: parsed, schemaAt: schema) {
                        found.append(drift("\(place) \"\(value)\": \(miss.message)", stub: field, at: miss.schemaPath))
                    }
                }
            }
            return found
        }

        /// The values the stub's written path gives the operation's whole-segment path parameters.
        private func pathValues() -> [String: String] {
            var values: [String: String] = [:]
            for (segment, parts) in zip(segments, PathTemplate(operation.path).segments) {
                if case .literal(let text) = segment, case .parameter(let name)? = StubDriftCheck.whole(parts) {
                    values[name] = text
                }
            }
            return values
        }

        /// The stub's answer: as it is, or rendered for a sample request of the operation.
        func answer() -> Result<StubResponse, Note> {
            let response: StubResponse
            switch stub.stub {
            case let fixed as StubResponse:
                response = fixed
            case let template as TemplateStub:
                do throws(TemplateRenderError) {
                    response = try template.rendered(for: sampleRequest())
                } catch {
                    return .failure(Note(text: "its template cannot be rendered for a sample request: \(error.reason)"))
                }
            case let other:
                return .failure(
                    Note(text: "its answer is chosen per request (\(type(of: other))), so it is not checked"))
            }
            if let fault = response.fault {
                return .failure(Note(text: "it answers with a fault (\(fault)), which the document cannot describe"))
            }
            return .success(response)
        }

        /// A request the operation accepts, on the stub's own path where it writes one out.
        private func sampleRequest() -> StubRequest {
            let sample = operation.sampleRequest(document.examples)
            let written = segments.compactMap { segment -> String? in
                if case .literal(let text) = segment { text } else { nil }
            }
            guard written.count == segments.count else { return sample }
            let path = "/" + written.joined(separator: "/")
            let query = sample.target.firstIndex(of: "?").map { String(sample.target[$0...]) } ?? ""
            return StubRequest(
                method: sample.method, target: path + query, headerFields: sample.headerFields, body: sample.body)
        }

        /// What the stub's answer says that the operation does not declare.
        func answerDrift(_ response: StubResponse, isHead: Bool) -> [StubDrift] {
            let code = response.status.code
            guard
                let declared = operation.responses.first(where: { $0.status == .code(code) })
                    ?? operation.responses.first(where: { $0.status == .range(code / 100) })
                    ?? operation.responses.first(where: { $0.status == .default })
            else {
                return [
                    drift(
                        "the status \(code) is not declared; the operation declares \(operation.declaredStatuses)",
                        stub: "/response/status", at: "\(operation.pointer)/responses")
                ]
            }
            var found: [StubDrift] = []
            for header in declared.requiredHeaders {
                guard let name = HTTPField.Name(header.name), response.headerFields[name] == nil else { continue }
                found.append(
                    drift(
                        "the required header field \(header.name) is missing",
                        stub: "/response/headers/\(header.name.pointerEscaped)", at: header.pointer))
            }
            guard !response.body.isEmpty, !isHead else { return found }
            let contentType = response.headerFields[.contentType].map(OpenAPIExampleStub.bareMediaType) ?? ""
            guard !declared.content.isEmpty else {
                return found + [
                    drift("the status \(code) is declared with no body", stub: "/response/body", at: declared.pointer)
                ]
            }
            guard
                let content = declared.content.first(where: {
                    OpenAPIExampleStub.mediaType(contentType, fits: $0.mediaType)
                })
            else {
                let allowed = declared.content.map(\.mediaType).joined(separator: ", ")
                return found + [
                    drift(
                        (contentType.isEmpty
                            ? "the stub sends no Content-Type" : "the Content-Type \(contentType) is not declared")
                            + "; the response declares \(allowed)",
                        stub: "/response/headers/Content-Type", at: "\(declared.pointer)/content")
                ]
            }
            let schema = "\(declared.pointer)/content/\(content.mediaType.pointerEscaped)/schema"
            guard OperationReader.isJSON(content.mediaType), document.validator.document.at(schema) != nil else {
                return found
            }
            guard let value = JSONValue(parsing: response.body) else {
                return found + [drift("the body is not JSON", stub: "/response/body", at: schema)]
            }
            return found
                + document.validator.violations(of: value, schemaAt: schema).map {
                    drift($0.message, stub: "/response/jsonBody\($0.instancePath)", at: $0.schemaPath)
                }
        }
    }
}
