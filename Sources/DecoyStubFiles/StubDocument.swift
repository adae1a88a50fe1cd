public import Decoy
public import Foundation
import Yams

/// One stub, or one request pattern, sent as JSON text rather than read from a folder: what
/// the admin API receives. It is read by the same decoders as stub files, so it takes the same
/// fields and its errors name the field and place the same way.
enum StubDocument {
    /// The stub in `data`, of one of `kinds`; its `bodyFileName` is looked up in `folder`, and
    /// refused without one.
    static func stub(
        _ data: Data, source: String, folder: URL?, options: StubFileOptions = StubFileOptions(), id: String? = nil,
        kinds: [StubFileKind] = StubFileKind.all
    ) -> Result<StubDefinition, DecoyError> {
        let log = DiagnosticLog(file: source)
        var decoder = decoder(source: source, folder: folder, options: options)
        decoder.assignedID = id
        decoder.kinds = kinds
        let definition = object(data, log: log).flatMap(decoder.decode)
        return finish(definition, log)
    }

    /// A decoder for a document from `source`, its body files looked up in `folder`.
    private static func decoder(source: String, folder: URL?, options: StubFileOptions) -> StubDecoder {
        let root = folder.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
        let responses = ResponseDecoder(bodyFiles: BodyFiles(root: root), stubFile: source, options: options)
        return StubDecoder(responses: responses, webhooks: WebhookDecoder(allowedHosts: options.webhookAllowedHosts))
    }

    /// The stubs of WireMock's import document in `data`, `{"mappings": [...], "importOptions": {...}}`.
    static func stubImport(_ data: Data, source: String, folder: URL?, options: StubFileOptions) -> Result<
        StubImport, DecoyError
    > {
        let log = DiagnosticLog(file: source)
        let decoder = decoder(source: source, folder: folder, options: options)
        let stubImport = object(data, log: log)?.object(known: ["mappings", "importOptions"]).flatMap {
            document -> StubImport? in
            let nodes =
                document["mappings"].map { $0.list("a list of stubs") }
                ?? document.node.expected("an object with \"mappings\"")
            let options = document["importOptions"].map(StubImport.Options.init) ?? StubImport.Options()
            let definitions = nodes?.map(decoder.decode)
            guard let definitions, let options else { return nil }
            let decoded = definitions.compactMap { $0 }
            guard decoded.count == definitions.count else { return nil }
            return StubImport(
                definitions: decoded, overwrites: options.overwrites, removesOthers: options.removesOthers)
        }
        return finish(stubImport, log)
    }

    /// The global fixed delay in WireMock's settings, `{"fixedDelay": 300}`: the delay of every stub
    /// whose response sets none, `.none` for 0. Other settings are refused by name.
    static func globalDelay(_ data: Data, source: String) -> Result<Delay, DecoyError> {
        let log = DiagnosticLog(file: source)
        let delay = object(data, log: log).flatMap { node -> Delay? in
            // Any name, so that each other setting gets its own message below.
            guard let settings = node.object(known: nil) else { return nil }
            for (name, member) in settings.members where name != "fixedDelay" {
                member.error("Decoy sets only fixedDelay over the admin API; \(name) is not supported")
            }
            guard let fixed = settings["fixedDelay"] else { return node.expected("settings with \"fixedDelay\"") }
            return fixed.integer(in: 0...Int.max, "a whole number of milliseconds").map {
                $0 == 0 ? .none : .fixed(.milliseconds($0))
            }
        }
        return finish(delay, log)
    }

    /// The value matcher in `data`, such as `{"matchesJsonPath": {"expression": "$.team", "equalTo": "web"}}`.
    static func valueMatcher(_ data: Data, source: String) -> Result<ValueMatcher, DecoyError> {
        let log = DiagnosticLog(file: source)
        let matcher = object(data, log: log).flatMap(MatcherDecoder.decode)
        return finish(matcher, log)
    }

    /// The request pattern in `data`: the fields of a stub's `request`.
    static func requestPattern(_ data: Data, source: String) -> Result<RequestPattern, DecoyError> {
        let log = DiagnosticLog(file: source)
        let route = object(data, log: log).flatMap(RequestDecoder.decode).flatMap { $0.compiled() }
        return finish(route, log)
    }

    private static func object(_ data: Data, log: DiagnosticLog) -> FileNode? {
        guard let root = StubFolder.parse(data, isJSON: true, log: log) else { return nil }
        let node = FileNode(node: root, field: "", log: log)
        guard case .mapping = root else { return node.expected("a JSON object") }
        return node
    }

    private static func finish<Value>(_ value: Value?, _ log: DiagnosticLog) -> Result<Value, DecoyError> {
        guard let value, log.errors.isEmpty else {
            return .failure(DecoyError.invalidStubFiles(log.errors))
        }
        return .success(value)
    }
}

/// Stubs to register at once, as WireMock's `POST /__admin/mappings/import` sends them.
struct StubImport {
    /// What `importOptions` asks.
    struct Options {
        /// `duplicatePolicy`: whether a stub replaces a registered one with its id (`OVERWRITE`) or is left out
        /// (`IGNORE`).
        var overwrites = true
        /// `deleteAllNotInImport`: whether every other registration goes first.
        var removesOthers = false

        init() {}

        /// The options in `node`; `nil` after logging what is wrong with them.
        init?(_ node: FileNode) {
            guard let object = node.object(known: ["duplicatePolicy", "deleteAllNotInImport"]) else { return nil }
            let policies = ["OVERWRITE": true, "IGNORE": false]
            let overwrites =
                object["duplicatePolicy"].map { policy in
                    policy.text().flatMap { policies[$0] ?? policy.expected("OVERWRITE or IGNORE") }
                } ?? true
            let removesOthers = object["deleteAllNotInImport"].map { $0.flag() } ?? false
            guard let overwrites, let removesOthers else { return nil }
            (self.overwrites, self.removesOthers) = (overwrites, removesOthers)
        }
    }

    let definitions: [StubDefinition]
    let overwrites: Bool
    let removesOthers: Bool
}

extension RequestPattern {
    /// Reads a request pattern written as a stub file's `request`, in JSON: WireMock's
    /// `method`, `url…`, `queryParameters`, `headers`, `cookies`, `formParameters` and `bodyPatterns`.
    public init(json data: Data, source: String = "request pattern") throws(DecoyError) {
        self = try StubDocument.requestPattern(data, source: source).get()
    }
}
