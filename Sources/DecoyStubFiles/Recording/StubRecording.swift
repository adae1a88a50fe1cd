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

    /// A recorded mapping: the stub-file document, its bodies inline, and the names it is written under.
    package struct Mapping: Sendable {
        /// An answer's body and the extension of its body file, after the answer's content type
        /// (`nil` when it has none).
        package struct Body: Sendable {
            package let data: Data
            package let fileExtension: String?
        }

        /// The mapping's `id`.
        package let id: String
        /// A name for its files made from the request, such as `get-users-1`.
        package let fileStem: String
        /// The stub-file document, the bodies inline.
        package let document: [String: JSONValue]
        /// The body of its `response`, or of each of its `responses` in turn (a sequence), written
        /// into `__files` when the mapping is written to a folder and ``bodyFiles`` says so.
        package let bodies: [Body]

        /// The document with the body of each answer that `names` gives a name replaced by its
        /// `bodyFileName`, as written to a folder.
        func document(bodyFileNames names: [String?]) -> [String: JSONValue] {
            func referring(_ response: JSONValue, to name: String?) -> JSONValue {
                guard let name, case .object(var members) = response else { return response }
                members["body"] = nil
                members["base64Body"] = nil
                members["bodyFileName"] = .string(name)
                return .object(members)
            }
            var document = document
            if let response = document["response"] {
                document["response"] = referring(response, to: names.first ?? nil)
            } else if case .array(let responses)? = document["responses"] {
                document["responses"] = .array(
                    responses.enumerated().map { referring($1, to: $0 < names.count ? names[$0] : nil) })
            }
            return document
        }
    }

    /// What a repeated request whose answers differ becomes.
    package enum Repeats: Sendable {
        /// A scenario of one mapping per answer, giving them in turn, as WireMock writes it.
        case scenario
        /// One mapping with the answers as a sequence (`mode: sequence`), Decoy's own kind: one
        /// file per request.
        case sequence
        /// One mapping with the first answer.
        case first
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
    /// What repeats with different answers become.
    package var repeats: Repeats
    /// Whether repeats with different answers become a scenario; otherwise the first answer is kept.
    package var repeatsAsScenarios: Bool {
        get { repeats == .scenario }
        set { repeats = newValue ? .scenario : .first }
    }
    /// Whether each mapping's `id` is made from its name and place among the mappings, rather than
    /// drawn at random, so that recording the same exchanges again writes the same files.
    package var stableIDs = false
    /// Whether a request is matched by its `Host` field too, so that the same path on two hosts
    /// gives two stubs.
    package var matchesHost = false
    /// How request bodies of writes are matched.
    package var bodyMatching = BodyMatching()
    /// Which bodies go into `__files` when written to a folder; `nil` keeps them all in their mappings.
    package var bodyFiles: BodyFiles?

    package init(redaction: LogRedaction = LogRedaction(), repeatsAsScenarios: Bool = true, bodyFiles: BodyFiles? = nil)
    {
        self.redaction = redaction
        self.repeats = repeatsAsScenarios ? .scenario : .first
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
        var stems: [String: Int] = [:]
        for request in order {
            let given = answers[request] ?? []
            let stem = Self.fileStem(for: request)
            stems[stem, default: 0] += 1
            let id = stableIDs ? Self.stableID(stem, stems[stem] ?? 1) : UUID().uuidString.lowercased()
            let differ = given.contains { $0.document != given[0].document }
            switch repeats {
            case .scenario where differ:
                scenarios += 1
                let name = "scenario-\(scenarios)-\(stem)"
                for (index, answer) in given.enumerated() {
                    let required = index == 0 ? Scenario.started : "\(name)-\(index + 1)"
                    let next = index + 1 < given.count ? "\(name)-\(index + 2)" : nil
                    let id = stableIDs ? Self.stableID(name, index + 1) : UUID().uuidString.lowercased()
                    mappings.append(mapping(request, [answer], id: id, stem: stem, scenario: (name, required, next)))
                }
            case .sequence where differ:
                mappings.append(mapping(request, given, id: id, stem: stem, scenario: nil))
            default:
                mappings.append(mapping(request, [given[0]], id: id, stem: stem, scenario: nil))
            }
        }
        return mappings
    }

    /// One mapping answering with `answers`: the one as its `response`, several as a sequence.
    private func mapping(
        _ request: [String: JSONValue], _ answers: [(response: StubResponse, document: [String: JSONValue])],
        id: String, stem: String, scenario: (name: String, required: String, next: String?)?
    ) -> Mapping {
        var document: [String: JSONValue] = ["id": .string(id), "name": .string(stem), "request": .object(request)]
        if answers.count == 1 {
            document["response"] = .object(answers[0].document)
        } else {
            document["mode"] = .string("sequence")
            document["responses"] = .array(answers.map { .object($0.document) })
        }
        if let scenario {
            document["scenarioName"] = .string(scenario.name)
            document["requiredScenarioState"] = .string(scenario.required)
            if let next = scenario.next { document["newScenarioState"] = .string(next) }
        }
        let bodies = answers.map { answer in
            // An event stream's events stay in its mapping: a body file holds a body, not events.
            Mapping.Body(
                data: answer.response.events == nil ? answer.response.body : Data(),
                fileExtension: answer.response.headerFields[.contentType].map(Self.fileExtension(forContentType:)))
        }
        return Mapping(id: id, fileStem: stem, document: document, bodies: bodies)
    }

    /// An id in a UUID's form made from `name` and `number` alone (two FNV-1a hashes of them), so
    /// that the same recording gets the same ids.
    static func stableID(_ name: String, _ number: Int) -> String {
        func fnv1a(_ seed: UInt64) -> UInt64 {
            "\(name)#\(number)".utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        let hex = [fnv1a(0xcbf2_9ce4_8422_2325), fnv1a(0x84222325_cbf29ce4)].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
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
        if matchesHost, let host = request.headerFields[HTTPField.Name("Host")!] {
            members["headers"] = .object(["Host": .object(["equalTo": .string(host)])])
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
        // Written anew only when something is hidden, so that an answer keeps its bytes otherwise.
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            hidesValue(in: json)
        else { return body }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        return (try? JSONSerialization.data(withJSONObject: redaction.redacting(json: json), options: options)) ?? body
    }

    /// Whether `json` has a hidden key whose value is not masked already, at any depth.
    private func hidesValue(in json: Any) -> Bool {
        switch json {
        case let object as [String: Any]:
            object.contains { key, value in
                redaction.hides(parameter: key) ? value as? String != LogRedaction.mask : hidesValue(in: value)
            }
        case let array as [Any]:
            array.contains { hidesValue(in: $0) }
        default:
            false
        }
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

    /// How a mapping written to a folder is named.
    package enum Naming: Sendable {
        /// After its request, under a name no file has yet (`get-users-2.json` beside
        /// `get-users.json`), taken atomically: recorders writing into one folder at once never
        /// overwrite each other's files.
        case free
        /// After its request, numbered in the order of the mappings when requests share a name,
        /// replacing a file of that name: the same exchanges recorded again give the same files.
        case replacing
    }

    /// Writes each mapping under `mappings/` of `folder` and its bodies, when ``bodyFiles`` says
    /// so, under `__files/`. Each file is written whole, then renamed (or linked) into place, so
    /// that no reader ever sees half of one.
    ///
    /// - Returns: the mapping files written, in order.
    @discardableResult
    package func write(_ mappings: [Mapping], to folder: URL, naming: Naming = .free) throws(DecoyError) -> [URL] {
        var written: [URL] = []
        var named: [String: Int] = [:]
        if !mappings.isEmpty { try Self.makeFolder(folder.appending(path: "mappings", directoryHint: .isDirectory)) }
        for mapping in mappings {
            let stem = mapping.fileStem
            named[stem, default: 0] += 1
            var number = naming == .replacing ? named[stem] ?? 1 : 1
            while true {
                let name = number == 1 ? stem : "\(stem)-\(number)"
                if let file = try place(mapping, as: name, in: folder, replacing: naming == .replacing) {
                    written.append(file)
                    break
                }
                number += 1
            }
        }
        return written
    }

    /// Writes `mapping` and its body files under `name`; `nil`, with nothing left written, when
    /// one of the names is taken and `replacing` does not hold.
    private func place(_ mapping: Mapping, as name: String, in folder: URL, replacing: Bool) throws(DecoyError)
        -> URL?
    {
        let filesFolder = folder.appending(path: "__files", directoryHint: .isDirectory)
        var placed: [URL] = []
        var bodyFileNames: [String?] = []
        for (index, body) in mapping.bodies.enumerated() {
            guard let fileExtension = body.fileExtension, isFiled(body.data) else {
                bodyFileNames.append(nil)
                continue
            }
            try Self.makeFolder(filesFolder)
            let bodyName = mapping.bodies.count == 1 ? name : "\(name).\(index + 1)"
            let file = filesFolder.appending(path: "\(bodyName).\(fileExtension)")
            guard try Self.put(body.data, at: file, replacing: replacing) else {
                Self.remove(placed)
                return nil
            }
            placed.append(file)
            bodyFileNames.append(file.lastPathComponent)
        }
        let document =
            bodyFileNames.contains { $0 != nil } ? mapping.document(bodyFileNames: bodyFileNames) : mapping.document
        let file = folder.appending(path: "mappings/\(name).json")
        guard try Self.put(Self.text(of: document), at: file, replacing: replacing) else {
            Self.remove(placed)
            return nil
        }
        return file
    }

    /// Takes back the body files of a mapping whose name turned out to be taken.
    private static func remove(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// Whether `body` goes into a file of its own. A body without a content type stays inline
    /// (the caller checks): a loader takes the type of a body file from its name, and the answer
    /// would gain a header field it never had.
    private func isFiled(_ body: Data) -> Bool {
        guard let bodyFiles, !body.isEmpty else { return false }
        return body.count > (String(data: body, encoding: .utf8) == nil ? bodyFiles.binaryAbove : bodyFiles.textAbove)
    }

    /// The document as the JSON text of a stub file: indented, keys sorted.
    package static func text(of document: [String: JSONValue]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // A JSONValue always encodes.
        let data = (try? encoder.encode(JSONValue.object(document))) ?? Data("{}".utf8)
        // JSON allows DEL, the C1 controls and U+FFFE/U+FFFF unescaped, but libyaml, which reads
        // stub files, refuses them (YAML's printable set): escaped, as only a string can hold them.
        guard String(decoding: data, as: UTF8.self).unicodeScalars.contains(where: isUnprintable) else { return data }
        var text = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if isUnprintable(scalar) {
                let code = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - code.count) + code
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return Data(text.utf8)
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    /// Makes `folder` and those it is in, when they do not exist.
    private static func makeFolder(_ folder: URL) throws(DecoyError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DecoyError.invalidStubFiles([
                StubFileDiagnostic(file: folder.path, message: "cannot be made: \(error.localizedDescription)")
            ])
        }
    }

    /// Writes `data` at `file`, in a folder that exists, replacing what is there when `replacing`
    /// holds; otherwise `false` when a file of that name exists.
    private static func put(_ data: Data, at file: URL, replacing: Bool) throws(DecoyError) -> Bool {
        let manager = FileManager.default
        do {
            // Written whole under a hidden name, which a load skips, then renamed into place, or
            // linked: linking fails when the name is taken, where a rename would overwrite.
            let hidden = file.deletingLastPathComponent().appending(path: ".\(file.lastPathComponent).\(UUID()).tmp")
            try writeUnsynced(data, to: hidden)
            if replacing {
                guard rename(hidden.path, file.path) == 0 else {
                    let failure = POSIXError(.init(rawValue: errno) ?? .EIO)
                    try? manager.removeItem(at: hidden)
                    throw failure
                }
                return true
            }
            defer { try? manager.removeItem(at: hidden) }
            do {
                try manager.linkItem(at: hidden, to: file)
            } catch  where manager.fileExists(atPath: file.path) {
                return false
            }
            return true
        } catch {
            throw DecoyError.invalidStubFiles([
                StubFileDiagnostic(file: file.path, message: "cannot be written: \(error.localizedDescription)")
            ])
        }
    }

    /// Writes `data` into a new file at `file`, without Foundation's `fsync` of every file it writes:
    /// the rename that follows keeps a stopped test from leaving half a file, and a recording is
    /// made again more cheaply than a disk syncs a thousand files (Pays: `scripts/benchmarks recording`).
    private static func writeUnsynced(_ data: Data, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.close()
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }
}
