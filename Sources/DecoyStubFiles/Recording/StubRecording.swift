package import Decoy
package import DecoyClient
package import Foundation
import HTTPTypes

/// Turns proxied exchanges into stub mappings, in WireMock's format, for `decoy record` and the
/// admin API's recordings.
///
/// A request is matched by its method, path and query, and for a write by its body too. Secrets
/// are hidden by the rules of the client's log (``LogRedaction``): a hidden query parameter or
/// JSON key is matched by its presence alone, and its value in an answer is masked. Repeats of
/// one request whose answers differ become a scenario that gives them in turn, as WireMock writes it.
package struct StubRecording: Sendable {
    /// One request that passed through and the upstream's answer.
    package struct Proxied: Sendable {
        package let request: StubRequest
        package let response: StubResponse

        package init(request: StubRequest, response: StubResponse) {
            self.request = request
            self.response = response
        }
    }

    /// A recorded mapping: the stub-file document, its body inline, and the names it is written under.
    package struct Mapping: Sendable {
        /// The mapping's `id`.
        package let id: String
        /// A name for its files made from the request, such as `get-users-1`.
        package let fileStem: String
        /// The stub-file document, the body inline.
        package let document: [String: JSONValue]
        /// The answer's body, written into `__files` when the mapping is written to a folder.
        package let body: Data
        /// The extension of the body file, after the answer's content type; `nil` when it has none.
        package let bodyExtension: String?

        /// The document with the body replaced by `bodyFileName`, as written to a folder.
        func document(bodyFileName: String) -> [String: JSONValue] {
            guard case .object(var response) = document["response"] else { return document }
            response["body"] = nil
            response["base64Body"] = nil
            response["bodyFileName"] = .string(bodyFileName)
            var document = document
            document["response"] = .object(response)
            return document
        }
    }

    /// How a request body is matched, WireMock's `requestBodyPatternFactory` with its `auto`
    /// matcher: `equalToJson` for a JSON object, `equalTo` for other text.
    package struct BodyMatching: Sendable, Equatable {
        package var ignoreArrayOrder = true
        package var ignoreExtraElements = true
        package var caseInsensitive = false

        package init() {}
    }

    /// The sizes above which a body is written into `__files` rather than into its mapping:
    /// WireMock's `extractBodyCriteria`.
    package struct BodyFiles: Sendable, Equatable {
        package var textAbove: Int
        package var binaryAbove: Int

        package init(textAbove: Int, binaryAbove: Int) {
            self.textAbove = textAbove
            self.binaryAbove = binaryAbove
        }

        /// Every body in a file of its own.
        package static let always = BodyFiles(textAbove: 0, binaryAbove: 0)
    }

    /// What is hidden.
    package var redaction: LogRedaction
    /// Whether repeats with different answers become a scenario; otherwise the first answer is kept.
    package var repeatsAsScenarios: Bool
    /// How request bodies of writes are matched.
    package var bodyMatching = BodyMatching()
    /// Which bodies go into `__files` when written to a folder; `nil` keeps them all in their mappings.
    package var bodyFiles: BodyFiles?

    package init(redaction: LogRedaction = LogRedaction(), repeatsAsScenarios: Bool = true, bodyFiles: BodyFiles? = nil)
    {
        self.redaction = redaction
        self.repeatsAsScenarios = repeatsAsScenarios
        self.bodyFiles = bodyFiles
    }

    /// The mappings for `proxied`, in the order their requests first came.
    package func mappings(from proxied: [Proxied]) -> [Mapping] {
        var order: [[String: JSONValue]] = []
        var answers: [[String: JSONValue]: [(response: StubResponse, document: [String: JSONValue])]] = [:]
        for answered in proxied {
            let request = request(answered.request)
            if answers[request] == nil { order.append(request) }
            let response = redacted(answered.response)
            answers[request, default: []].append((response, responseDocument(response)))
        }
        var mappings: [Mapping] = []
        var scenarios = 0
        for request in order {
            let given = answers[request] ?? []
            let stem = Self.fileStem(for: request)
            guard repeatsAsScenarios, given.contains(where: { $0.document != given[0].document }) else {
                mappings.append(mapping(request, given[0], stem: stem, scenario: nil))
                continue
            }
            scenarios += 1
            let name = "scenario-\(scenarios)-\(stem)"
            for (index, answer) in given.enumerated() {
                let required = index == 0 ? Scenario.started : "\(name)-\(index + 1)"
                let next = index + 1 < given.count ? "\(name)-\(index + 2)" : nil
                mappings.append(mapping(request, answer, stem: stem, scenario: (name, required, next)))
            }
        }
        return mappings
    }

    private func mapping(
        _ request: [String: JSONValue], _ answer: (response: StubResponse, document: [String: JSONValue]), stem: String,
        scenario: (name: String, required: String, next: String?)?
    ) -> Mapping {
        let id = UUID().uuidString.lowercased()
        var document: [String: JSONValue] = [
            "id": .string(id), "name": .string(stem), "request": .object(request), "response": .object(answer.document),
        ]
        if let scenario {
            document["scenarioName"] = .string(scenario.name)
            document["requiredScenarioState"] = .string(scenario.required)
            if let next = scenario.next { document["newScenarioState"] = .string(next) }
        }
        let bodyExtension = answer.response.headerFields[.contentType].map(Self.fileExtension(forContentType:))
        // An event stream's events stay in its mapping: a body file holds a body, not events.
        let body = answer.response.events == nil ? answer.response.body : Data()
        return Mapping(id: id, fileStem: stem, document: document, body: body, bodyExtension: bodyExtension)
    }

    // MARK: Requests

    /// Method, then `url` (path and query as sent), or `urlPath` and `queryParameters` when a
    /// query parameter is hidden; for a write, the body.
    private func request(_ request: StubRequest) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["method": .string(request.method.rawValue)]
        let names = (request.query ?? "").split(separator: "&").map { pair in
            let name = LogRedaction.rawParameterName(pair)
            return name.removingPercentEncoding ?? name
        }
        if names.contains(where: { redaction.hides(parameter: $0) }) {
            members["urlPath"] = .string(request.path)
            var parameters: [String: JSONValue] = [:]
            for name in names where parameters[name] == nil {
                let values = request.queryValues(name)
                parameters[name] =
                    redaction.hides(parameter: name) || values.count != 1
                    ? .object(["absent": .bool(false)]) : .object(["equalTo": .string(values[0])])
            }
            members["queryParameters"] = .object(parameters)
        } else {
            members["url"] = .string(request.target)
        }
        if !request.body.isEmpty, ![.get, .head, .options].contains(request.method),
            let pattern = bodyPattern(request.body)
        {
            members["bodyPatterns"] = .array([pattern])
        }
        return members
    }

    /// JSON equal to the body's, hidden keys left out (and then extra elements allowed); text equal to it.
    private func bodyPattern(_ body: Data) -> JSONValue? {
        if let json = JSONValue(parsing: body), case .object = json {
            let kept = withoutHiddenKeys(json)
            var members: [String: JSONValue] = ["equalToJson": .string(kept.json)]
            if bodyMatching.ignoreArrayOrder { members["ignoreArrayOrder"] = .bool(true) }
            if bodyMatching.ignoreExtraElements || kept != json { members["ignoreExtraElements"] = .bool(true) }
            return .object(members)
        }
        // A binary body has no text to compare; method, path and query match it.
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        return .object(
            bodyMatching.caseInsensitive
                ? ["equalTo": .string(text), "caseInsensitive": .bool(true)] : ["equalTo": .string(text)])
    }

    private func withoutHiddenKeys(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members):
            .object(members.filter { !redaction.hides(parameter: $0.key) }.mapValues(withoutHiddenKeys))
        case .array(let values):
            .array(values.map(withoutHiddenKeys))
        default:
            json
        }
    }

    // MARK: Responses

    /// The answer with hidden header fields and JSON keys masked; a relayed event stream as the
    /// events noted of it, each after its gap.
    private func redacted(_ response: StubResponse) -> StubResponse {
        var fields = HTTPFields()
        for field in response.headerFields {
            fields.append(
                HTTPField(name: field.name, value: redaction.hides(field: field.name) ? LogRedaction.mask : field.value)
            )
        }
        // The code alone, as WireMock records it: a reason phrase is a courtesy of HTTP/1.1.
        let status = HTTPResponse.Status(code: response.status.code, reasonPhrase: "")
        if let relay = response.relay, let stream = eventStream(of: relay.noted) {
            return EventStreamStub(status: status, headerFields: fields, stream: stream, delay: .none).response
        }
        return StubResponse(status: status, headerFields: fields, body: masked(response.body))
    }

    /// The events noted, their JSON data masked, closing where the upstream closed and held open
    /// where it had not yet; `nil` when none came.
    private func eventStream(of noted: RelayedEvents.Noted) -> EventStream? {
        let events = noted.events.map { event in
            var event = event
            event.data = event.data.map { String(decoding: masked(Data($0.utf8)), as: UTF8.self) }
            return event
        }
        // The relay notes only what an event stream holds, so the events are refused only when none came.
        return try? EventStream(events, then: noted.isEnded ? .close : .stayOpen)
    }

    /// `body` with hidden JSON keys masked; its own bytes when it is no JSON or hides nothing.
    private func masked(_ body: Data) -> Data {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return body
        }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        let masked = try? JSONSerialization.data(withJSONObject: redaction.redacting(json: json), options: options)
        // Written anew only when something was hidden, so that an answer keeps its bytes otherwise.
        guard let masked, masked != (try? JSONSerialization.data(withJSONObject: json, options: options)) else {
            return body
        }
        return masked
    }

    private func responseDocument(_ response: StubResponse) -> [String: JSONValue] {
        // A status outside 100…599 never comes back from a transport, so encoding cannot fail.
        guard case .object(var members)? = try? StubEncoder.response(response) else {
            return ["status": .number(Double(response.status.code))]
        }
        if case .array(let events)? = members["events"] {
            members["events"] = .array(events.map(Self.withJSONData))
        }
        return members
    }

    /// An event's document with its `data` as JSON when it is a JSON object or list, as a reader
    /// of the stub file would write it.
    private static func withJSONData(_ event: JSONValue) -> JSONValue {
        guard case .object(var fields) = event, case .string(let text)? = fields["data"],
            let json = JSONValue(parsing: Data(text.utf8))
        else { return event }
        switch json {
        case .object, .array: fields["data"] = json
        default: break
        }
        return .object(fields)
    }

    // MARK: Names

    /// `get-users-1` for `GET /users/1?page=2`: lowercase letters and digits, at most 60 characters.
    static func fileStem(for request: [String: JSONValue]) -> String {
        let method = if case .string(let method)? = request["method"] { method.lowercased() } else { "any" }
        let path =
            switch (request["url"], request["urlPath"]) {
            case (.string(let url)?, _), (_, .string(let url)?): String(url.prefix { $0 != "?" })
            default: ""
            }
        var slug = ""
        for character in path.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                slug.append(character)
            } else if !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        slug = String(slug.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(60))
        return method + "-" + (slug.isEmpty ? "root" : slug)
    }

    static func fileExtension(forContentType type: String) -> String {
        let type = type.lowercased()
        if type.contains("json") { return "json" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        if type.hasPrefix("text/") { return "txt" }
        return "bin"
    }

    // MARK: Writing

    /// Writes each mapping under `mappings/` of `folder` and its body, when ``bodyFiles`` says
    /// so, under `__files/`, each under a name no file there has yet.
    ///
    /// - Returns: the mapping files written, in order.
    @discardableResult
    package func write(_ mappings: [Mapping], to folder: URL) throws(DecoyError) -> [URL] {
        let mappingsFolder = folder.appending(path: "mappings", directoryHint: .isDirectory)
        let filesFolder = folder.appending(path: "__files", directoryHint: .isDirectory)
        var written: [URL] = []
        for mapping in mappings {
            var document = mapping.document
            // A body without a content type stays inline: a loader takes the type of a body file
            // from its name, and the answer would gain a header field it never had.
            if let bodyFiles, !mapping.body.isEmpty, mapping.bodyExtension != nil,
                mapping.body.count
                    > (String(data: mapping.body, encoding: .utf8) == nil ? bodyFiles.binaryAbove : bodyFiles.textAbove)
            {
                let bodyFile = Self.freeName(
                    in: filesFolder, stem: mapping.fileStem, extension: mapping.bodyExtension ?? "")
                try Self.write(mapping.body, to: bodyFile)
                document = mapping.document(bodyFileName: bodyFile.lastPathComponent)
            }
            let file = Self.freeName(in: mappingsFolder, stem: mapping.fileStem, extension: "json")
            try Self.write(Self.text(of: document), to: file)
            written.append(file)
        }
        return written
    }

    /// The document as the JSON text of a stub file: indented, keys sorted.
    package static func text(of document: [String: JSONValue]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A JSONValue always encodes.
        return (try? encoder.encode(JSONValue.object(document))) ?? Data("{}".utf8)
    }

    private static func freeName(in folder: URL, stem: String, extension pathExtension: String) -> URL {
        var candidate = folder.appending(path: "\(stem).\(pathExtension)")
        var number = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            number += 1
            candidate = folder.appending(path: "\(stem)-\(number).\(pathExtension)")
        }
        return candidate
    }

    private static func write(_ data: Data, to file: URL) throws(DecoyError) {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            throw DecoyError.invalidStubFiles([
                StubFileDiagnostic(file: file.path, message: "cannot be written: \(error.localizedDescription)")
            ])
        }
    }
}
