import Decoy
import Foundation
import HTTPTypes

/// Answers one operation from the examples of its document, as Prism does: the request is checked
/// against the operation's parameters and body first (a miss gets `400`, naming the schema
/// keyword it failed), then answered with the response `Prefer: code=…` asks for, or else the
/// first 2xx, and the example `Prefer: example=…` names, or else the first that passes the schema.
struct OpenAPIExampleStub: Stub {
    /// Below every route a stub file or code registers at its default priority, or any priority
    /// people write, so that those win over the document's examples.
    static let priority = 1_000_000

    /// RFC 7240's header field, which Prism reads for the response to give.
    private static let prefer = HTTPField.Name("Prefer")!

    private let operation: OpenAPIOperation
    private let validator: SchemaValidator
    /// The operation's path as a regular expression, a group for each template parameter, and their names.
    private let pathExpression: NSRegularExpression?
    private let pathParameterNames: [String]
    /// Each response's each media type's each example, made once.
    private let made: [[[StubResponse]]]

    init(_ operation: OpenAPIOperation, validator: SchemaValidator) {
        self.operation = operation
        self.validator = validator
        let template = PathTemplate(operation.path)
        pathExpression = try? NSRegularExpression(pattern: "^\(template.expression)$")
        pathParameterNames = template.parameterNames
        made = operation.responses.map { response in
            response.content.map { content in
                content.examples.map {
                    Self.response(status: Self.status(of: response.status), mediaType: content.mediaType, body: $0.body)
                }
            }
        }
    }

    func resolve(for request: StubRequest) -> StubResolution {
        let problems = violations(of: request)
        if !problems.isEmpty { return .response(Self.problem(problems, in: operation)) }
        return .response(exampleResponse(for: request))
    }

    // MARK: Checking the request

    private func violations(of request: StubRequest) -> [Problem] {
        var problems: [Problem] = []
        let pathValues = self.pathValues(of: request.path)
        for parameter in operation.parameters {
            let values: [String] =
                switch parameter.location {
                case .path: pathValues[parameter.name].map { [$0] } ?? []
                case .query: request.queryValues(parameter.name)
                case .header: HTTPField.Name(parameter.name).map { request.headerFields[values: $0] } ?? []
                case .cookie: request.cookieValues(parameter.name)
                }
            let place = "\(parameter.location.rawValue) parameter \(parameter.name)"
            guard !values.isEmpty else {
                if parameter.required {
                    problems.append(
                        Problem(
                            place: place, schema: "\(parameter.pointer)/required",
                            message: "the required parameter is missing"))
                }
                continue
            }
            guard let schema = parameter.schema else { continue }
            let value = validator.parameterValue(of: values, parameter, schemaAt: schema)
            problems += validator.violations(of: value, schemaAt: schema).map {
                Problem(place: place, $0)
            }
        }
        if let body = operation.body { problems += violations(of: request, body: body) }
        return problems
    }

    private func violations(of request: StubRequest, body: OpenAPIOperation.Body) -> [Problem] {
        guard !request.body.isEmpty else {
            return body.required
                ? [
                    Problem(
                        place: "body", schema: "\(body.pointer)/required",
                        message: "the required request body is missing")
                ] : []
        }
        let contentType = request.headerFields[.contentType].map(Self.bareMediaType) ?? ""
        guard let content = body.content.first(where: { Self.mediaType(contentType, fits: $0.mediaType) }) else {
            let allowed = body.content.map(\.mediaType).joined(separator: ", ")
            return [
                Problem(
                    place: "body", schema: "\(body.pointer)/content",
                    message:
                        "the Content-Type \(contentType.isEmpty ? "is missing" : contentType + " is not allowed"); "
                        + "the document allows \(allowed)"
                )
            ]
        }
        guard let schema = content.schema else { return [] }
        guard let value = JSONValue(parsing: request.body) else {
            return [Problem(place: "body", schema: schema, message: "the body is not JSON")]
        }
        return validator.violations(of: value, schemaAt: schema).map { Problem(place: "body", $0) }
    }

    /// The values of the path's template parameters, percent-decoded.
    private func pathValues(of path: String) -> [String: String] {
        guard let pathExpression,
            let match = pathExpression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path))
        else { return [:] }
        var values: [String: String] = [:]
        for (index, name) in pathParameterNames.enumerated() {
            guard let range = Range(match.range(at: index + 1), in: path) else { continue }
            values[name] = path[range].removingPercentEncoding ?? String(path[range])
        }
        return values
    }

    // MARK: Answering

    private func exampleResponse(for request: StubRequest) -> StubResponse {
        let preferences: [(key: String, value: String)]
        do {
            preferences = try Self.preferences(request.headerFields[values: Self.prefer])
        } catch {
            return Self.problem([error], in: operation)
        }
        let wantedCode = preferences.last { $0.key == "code" }.map(\.value)
        let wantedExample = preferences.last { $0.key == "example" }.map(\.value)
        let responseIndex: Int
        var status: HTTPResponse.Status?
        if let wantedCode {
            guard let code = Int(wantedCode), (100..<600).contains(code) else {
                return Self.problem(
                    [Problem(place: "header Prefer", schema: nil, message: "code=\(wantedCode) is not a status code")],
                    in: operation)
            }
            guard
                let index = operation.responses.firstIndex(where: { $0.status == .code(code) })
                    ?? operation.responses.firstIndex(where: { $0.status == .range(code / 100) })
                    ?? operation.responses.firstIndex(where: { $0.status == .default })
            else {
                return Self.problem(
                    [
                        Problem(
                            place: "header Prefer", schema: "\(operation.pointer)/responses",
                            message: "the operation has no response \(code); it has \(operation.declaredStatuses)")
                    ], in: operation)
            }
            responseIndex = index
            if operation.responses[index].status != .code(code) { status = HTTPResponse.Status(code: code) }
        } else {
            // The first 2xx; without one, the first response the document declares, default last.
            guard
                let index = operation.responses.firstIndex(where: {
                    if case .code(let code) = $0.status { (200..<300).contains(code) } else { false }
                })
                    ?? operation.responses.firstIndex(where: { $0.status == .range(2) })
                    ?? operation.responses.firstIndex(where: { $0.status != .default })
                    ?? operation.responses.indices.first
            else {
                return StubResponse(
                    status: .internalServerError,
                    text:
                        "The OpenAPI document declares no response for \(operation).\n"
                )
            }
            responseIndex = index
        }
        let response = operation.responses[responseIndex]
        let accepted = request.headerFields[values: .accept].flatMap { $0.split(separator: ",") }.map {
            Self.bareMediaType(String($0))
        }
        guard
            let contentIndex = response.content.firstIndex(where: { content in
                accepted.contains { Self.mediaType(content.mediaType, fits: $0) }
            })
                ?? (response.content.isEmpty ? nil : 0)
        else {
            return StubResponse(status: status ?? Self.status(of: response.status))
        }
        let content = response.content[contentIndex]
        let exampleIndex: Int
        if let wantedExample {
            guard let index = content.examples.firstIndex(where: { $0.name == wantedExample }) else {
                let names = content.examples.compactMap(\.name).map { "\"\($0)\"" }
                return Self.problem(
                    [
                        Problem(
                            place: "header Prefer", schema: "\(operation.pointer)/responses",
                            message:
                                "the response has no example named \"\(wantedExample)\"; it has "
                                + (names.isEmpty ? "no named examples" : names.joined(separator: ", "))
                        )
                    ], in: operation)
            }
            exampleIndex = index
        } else {
            guard let index = content.examples.firstIndex(where: \.passes) ?? content.examples.indices.first else {
                return StubResponse(
                    status: status ?? Self.status(of: response.status), headerFields: [.contentType: content.mediaType])
            }
            exampleIndex = index
        }
        if let status {
            return Self.response(
                status: status, mediaType: content.mediaType, body: content.examples[exampleIndex].body)
        }
        return made[responseIndex][contentIndex][exampleIndex]
    }

    /// The preferences of `Prefer` header fields (RFC 7240), of which Decoy knows Prism's `code`
    /// and `example`; any other is refused rather than ignored.
    private static func preferences(_ fields: [String]) throws(Problem) -> [(key: String, value: String)] {
        var read: [(key: String, value: String)] = []
        for preference in fields.flatMap({ $0.split(separator: ",") }) {
            // Parameters after ";" belong to the preference before them; Prism writes none.
            let token = preference.split(separator: ";").first.map(String.init) ?? ""
            let parts = token.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let key = parts.first?.lowercased() ?? ""
            guard key == "code" || key == "example", parts.count == 2 else {
                throw Problem(
                    place: "header Prefer", schema: nil,
                    message:
                        "the preference \"\(token.trimmingCharacters(in: .whitespaces))\" is not supported; "
                        + "Decoy reads code=… and example=…"
                )
            }
            read.append((key, parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
        }
        return read
    }

    private static func status(of status: OpenAPIOperation.Response.Status) -> HTTPResponse.Status {
        switch status {
        case .code(let code): HTTPResponse.Status(code: code)
        case .range(let first): HTTPResponse.Status(code: first * 100)
        case .default: .internalServerError
        }
    }

    private static func response(status: HTTPResponse.Status, mediaType: String, body: [UInt8]) -> StubResponse {
        StubResponse(status: status, headerFields: [.contentType: mediaType], body: Data(body))
    }

    static func bareMediaType(_ value: String) -> String {
        (value.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `mediaType` fits `pattern`, which may be `*/*` or `type/*`.
    static func mediaType(_ mediaType: String, fits pattern: String) -> Bool {
        let mediaType = bareMediaType(mediaType)
        let pattern = bareMediaType(pattern)
        if pattern == "*/*" || mediaType == pattern { return true }
        return pattern.hasSuffix("/*") && mediaType.hasPrefix(pattern.dropLast())
    }

    // MARK: 400

    /// One reason a request is refused.
    struct Problem: Error, Encodable {
        /// `query parameter limit`, `body`, `header Prefer`.
        let place: String
        /// Where in the value, for a body: `/name`.
        var at: String?
        /// The schema keyword or field of the document it fails.
        let schema: String?
        let message: String

        init(place: String, schema: String?, message: String) {
            self.place = place
            self.schema = schema
            self.message = message
        }

        init(place: String, _ violation: SchemaViolation) {
            self.init(place: place, schema: violation.schemaPath, message: violation.message)
            at = violation.instancePath.isEmpty ? nil : violation.instancePath
        }
    }

    /// `400 Bad Request` listing the problems, as `application/problem+json`.
    private static func problem(_ problems: [Problem], in operation: OpenAPIOperation) -> StubResponse {
        struct Body: Encodable {
            let title: String
            let status: Int
            let operation: String
            let errors: [Problem]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        let body = Body(
            title: "The request does not match the OpenAPI document", status: 400, operation: operation.description,
            errors: problems)
        let data = (try? encoder.encode(body)) ?? Data()
        return StubResponse(
            status: .badRequest, headerFields: [.contentType: "application/problem+json"], body: data + Data("\n".utf8))
    }
}
