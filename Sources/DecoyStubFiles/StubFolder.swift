package import Decoy
package import Foundation
import Yams

/// A folder of stub files: JSON or YAML, one stub or a list per file, in any subfolder but
/// `__files/`, which holds body files. The format is WireMock's, so a WireMock root
/// (`mappings/` and `__files/`) is a stubs folder as it is, and only its `mappings/` is read
/// for stubs. See `docs/stub-files.md`. ``Decoy/StubRegistry/load(folder:strict:)`` and
/// ``Decoy/StubRegistry/check(folder:)`` read one.
package struct StubFolder: Sendable {
    /// The file extensions read as stub files.
    static let fileExtensions: Set<String> = ["json", "yaml", "yml"]

    /// The folder.
    package let url: URL
    /// Whether every response is a template, with or without `"transformers": ["response-template"]`:
    /// WireMock's global response templating.
    package var templatesEveryResponse: Bool {
        get { options.templatesEveryResponse }
        set { options.templatesEveryResponse = newValue }
    }
    /// Whether a `jsonBody` or a body file sets `Content-Type` when the stub sets none; WireMock
    /// sends none. See ``Decoy/StubRegistry/contentTypeFromBody``.
    package var contentTypeFromBody: Bool {
        get { options.contentTypeFromBody }
        set { options.contentTypeFromBody = newValue }
    }
    /// The hosts webhooks may go to beside loopback; a webhook to another is an error.
    package var webhookAllowedHosts: Set<String> {
        get { options.webhookAllowedHosts }
        set { options.webhookAllowedHosts = newValue }
    }
    var options: StubFileOptions

    /// Creates a stubs folder at `url`; nothing is read until it is checked or loaded.
    package init(
        url: URL, templatesEveryResponse: Bool = false, contentTypeFromBody: Bool = false,
        webhookAllowedHosts: Set<String> = []
    ) {
        self.url = url
        self.options = StubFileOptions(
            templatesEveryResponse: templatesEveryResponse, contentTypeFromBody: contentTypeFromBody,
            webhookAllowedHosts: webhookAllowedHosts)
    }

    /// Reads and checks every stub file, as `decoy check` does, without registering anything.
    package func check() -> StubFolderReport {
        compile().report
    }

    /// Every stub that compiles, with where it is, and what checking the folder found: what
    /// `decoy check --openapi` checks against the documents.
    package func compiledStubs() -> (stubs: [(loaded: LoadedStub, stub: any Stub)], report: StubFolderReport) {
        let (definitions, _, report) = compile()
        return (definitions.map { ($0.loaded, $0.stub) }, report)
    }

    /// The error when there is no folder to read at all.
    var missing: StubFileDiagnostic? {
        var isFolder: ObjCBool = false
        let root = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            return StubFileDiagnostic(file: url.path, message: "no such folder")
        }
        return nil
    }

    /// Every stub of the folder that compiles, and what was found along the way: each other
    /// stub is refused alone, so that one broken file or stub does not take the rest down.
    func compile() -> (definitions: [StubDefinition], messageStubs: [MessageStub], report: StubFolderReport) {
        if let missing {
            let refused = RefusedStub(file: url.path, line: 1, route: nil, errors: [missing])
            return ([], [], StubFolderReport(stubs: [], refused: [refused], warnings: []))
        }
        let root = url.standardizedFileURL.resolvingSymlinksInPath().path
        let bodyFiles = BodyFiles(root: root)
        var definitions: [StubDefinition] = []
        var refused: [RefusedStub] = []
        var warnings: [StubFileDiagnostic] = []
        for file in Self.stubFiles(in: root) {
            let log = DiagnosticLog(file: file)
            let decoder = StubDecoder(
                responses: ResponseDecoder(
                    bodyFiles: bodyFiles, stubFile: file, options: options),
                webhooks: WebhookDecoder(allowedHosts: options.webhookAllowedHosts, leavesOutDisallowedHosts: true))
            let nodes = Self.stubNodes(in: root + "/" + file, log: log)
            if !log.errors.isEmpty {
                refused.append(Self.unreadable(file, log: log))
            } else {
                let (decoded, refusedHere) = Self.decodeEach(nodes, log: log, decoder.decode)
                definitions += decoded
                refused += refusedHere
            }
            warnings += log.warnings.sorted(by: Self.inFileOrder)
        }
        let (unique, duplicates) = Self.withoutDuplicateIDs(definitions)
        refused += duplicates
        let messages = Self.messageStubs(in: root)
        return (
            unique, messages.stubs,
            StubFolderReport(
                stubs: unique.map(\.loaded), refused: refused + messages.refused,
                warnings: warnings + messages.warnings,
                messageStubCount: messages.stubs.count)
        )
    }

    /// The folder holding WireMock's message stub mappings, beside `mappings/`.
    static let messageMappingsFolder = "message-mappings"

    /// The message stubs of `message-mappings/`, each file one mapping or `{"messageMappings": [...]}`:
    /// those that load, those refused, each alone, and the warnings.
    private static func messageStubs(in root: String) -> (
        stubs: [MessageStub], refused: [RefusedStub], warnings: [StubFileDiagnostic]
    ) {
        var stubs: [MessageStub] = []
        var refused: [RefusedStub] = []
        var warnings: [StubFileDiagnostic] = []
        for file in files(under: root, in: messageMappingsFolder + "/") {
            let log = DiagnosticLog(file: file)
            let path = root + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                refused.append(
                    RefusedStub(
                        file: file, line: 1, route: nil,
                        errors: [StubFileDiagnostic(file: file, message: "cannot be read")]))
                continue
            }
            let nodes = parse(data, isJSON: path.lowercased().hasSuffix(".json"), log: log).map {
                MessageStubDocument.stubNodes(FileNode(node: $0, field: "", log: log))
            }
            if let nodes, log.errors.isEmpty {
                let (decoded, refusedHere) = decodeEach(nodes, log: log, MessageStubDecoder.decode)
                stubs += decoded
                refused += refusedHere
            } else {
                refused.append(unreadable(file, log: log))
            }
            warnings += log.warnings.sorted(by: inFileOrder)
        }
        return (stubs, refused, warnings)
    }

    /// Each of a file's stubs decoded alone: those with no error, and the others refused with theirs.
    private static func decodeEach<Stub>(
        _ nodes: [FileNode], log: DiagnosticLog, _ decode: (FileNode) -> Stub?
    ) -> (decoded: [Stub], refused: [RefusedStub]) {
        var decoded: [Stub] = []
        var refused: [RefusedStub] = []
        for node in nodes {
            let before = log.errors.count
            let stub = decode(node)
            let errors = Array(log.errors[before...])
            if let stub, errors.isEmpty {
                decoded.append(stub)
            } else {
                refused.append(Self.refused(node, errors: errors.sorted(by: inFileOrder)))
            }
        }
        return (decoded, refused)
    }

    /// A file that could not be read as a whole: none of it loads.
    private static func unreadable(_ file: String, log: DiagnosticLog) -> RefusedStub {
        RefusedStub(file: file, line: log.errors.first?.line ?? 1, route: nil, errors: log.errors)
    }

    /// The refused stub `node`, with the route its `request` gives when that part reads alone.
    private static func refused(_ node: FileNode, errors: [StubFileDiagnostic]) -> RefusedStub {
        let line = node.mark?.line ?? errors.first?.line ?? 1
        // Read again apart, so that its errors, logged already, are not logged twice.
        let scratch = FileNode(node: node.node, field: node.field, log: DiagnosticLog(file: node.log.file))
        let request = scratch.object(known: nil)?["request"]
        let route = request.flatMap(RequestDecoder.decode).flatMap { $0.compiled() }?.route
        return RefusedStub(file: node.log.file, line: line, route: route, errors: errors)
    }

    /// The stub files under `root`, relative to it, sorted; hidden files and `__files/` left
    /// out. In a WireMock root, one with a `mappings/` folder, only that folder holds stubs, as
    /// WireMock reads it: JSON beside it is a body file or anything else.
    private static func stubFiles(in root: String) -> [String] {
        var isFolder: ObjCBool = false
        let isWireMockRoot =
            FileManager.default.fileExists(atPath: root + "/mappings", isDirectory: &isFolder) && isFolder.boolValue
        return files(under: root, in: isWireMockRoot ? "mappings/" : "")
    }

    /// The stub files under `root` + `base`, relative to `root`, sorted; hidden files, `__files/`
    /// and `message-mappings/` left out.
    private static func files(under root: String, in base: String) -> [String] {
        let items = FileManager.default.enumerator(atPath: root + "/" + base)
        var files: [String] = []
        while let item = items?.nextObject() as? String {
            let name = item.split(separator: "/").last ?? ""
            if name == "__files" || name == messageMappingsFolder || name.hasPrefix(".") {
                items?.skipDescendants()
            } else if let dot = name.lastIndex(of: "."),
                fileExtensions.contains(name[name.index(after: dot)...].lowercased())
            {
                files.append(base + item)
            }
        }
        return files.sorted()
    }

    /// The stubs of one file: its root object, the elements of its root list, or WireMock's `mappings`.
    private static func stubNodes(in path: String, log: DiagnosticLog) -> [FileNode] {
        guard let data = FileManager.default.contents(atPath: path) else {
            log.error("cannot be read")
            return []
        }
        guard let root = parse(data, isJSON: path.lowercased().hasSuffix(".json"), log: log) else { return [] }
        let file = FileNode(node: root, field: "", log: log)
        if case .mapping(let mapping) = root, let mappings = mapping["mappings"] {
            return file.member("mappings", mappings).list("a list of stubs") ?? []
        }
        if case .sequence = root { return file.list() ?? [] }
        return [file]
    }

    /// The document in `data`; JSON is parsed as the YAML it also is, for the line and column of each node.
    static func parse(_ data: Data, isJSON: Bool, log: DiagnosticLog) -> Node? {
        guard var text = String(validating: data, as: UTF8.self) else {
            log.error("cannot be read as UTF-8 text")
            return nil
        }
        // Editors on Windows start UTF-8 files with a byte-order mark, which is no JSON value;
        // on line 1 no column counts it.
        if text.unicodeScalars.first == "\u{FEFF}" {
            text.unicodeScalars.removeFirst()
            if isJSON {
                log.warning(
                    "the file starts with a byte-order mark, read past; WireMock 2.35.1 refuses such a file",
                    at: (1, 1))
            }
        }
        do {
            let yaml = isJSON ? lenient(text, log: log) : text
            // Every value built from the file walks the tree with its aliases expanded, so a few
            // hundred bytes of nested aliases would be billions of values, and a large scalar
            // aliased many times gigabytes of text: refuse them first.
            let aliasedBytes = AliasBound.byteLimit(forFileOf: data.count)
            switch AliasBound.excess(in: yaml, values: data.count + maximumAliasedValues, bytes: aliasedBytes) {
            case .values:
                log.error(
                    """
                    aliases repeat more than \(maximumAliasedValues) values in this file; write them out, or \
                    repeat fewer
                    """
                )
                return nil
            case .bytes:
                log.error(
                    """
                    aliases make this file stand for more than \(aliasedBytes) bytes of text; write them out, or \
                    repeat fewer
                    """
                )
                return nil
            case nil:
                break
            }
            // An explicit encoding spares Yams a look at the environment for each file.
            guard let root = try Yams.compose(yaml: yaml, .basic, .default, .utf8) else {
                log.error("the file is empty; expected a stub, a list of stubs or {\"mappings\": [...]}")
                return nil
            }
            return root
        } catch let error as YamlError {
            log.error(error, isJSON: isJSON)
            return nil
        } catch {
            log.error("\(error)")
            return nil
        }
    }

    /// JSON `text` as WireMock reads it and ready for the YAML parser (see ``LenientJSON``),
    /// each leniency a warning.
    private static func lenient(_ text: String, log: DiagnosticLog) -> String {
        let json = LenientJSON(Array(text.utf8))
        for leniency in json.leniencies {
            log.warning(leniency.message, at: (leniency.line, leniency.column))
        }
        return json.isChanged ? String(decoding: json.text, as: UTF8.self) : text
    }

    /// How many values YAML aliases may add to a file, beyond one per byte of it, which no file
    /// without aliases reaches.
    static let maximumAliasedValues = 100_000

    /// Problems are found field by field; they read best in the order of the file.
    private static func inFileOrder(_ a: StubFileDiagnostic, _ b: StubFileDiagnostic) -> Bool {
        (a.line ?? 0, a.column ?? 0) < (b.line ?? 0, b.column ?? 0)
    }

    /// The definitions, each stub whose `id` an earlier stub has refused.
    private static func withoutDuplicateIDs(_ definitions: [StubDefinition]) -> ([StubDefinition], [RefusedStub]) {
        var first: [String: LoadedStub] = [:]
        var unique: [StubDefinition] = []
        var refused: [RefusedStub] = []
        for definition in definitions {
            let stub = definition.loaded
            guard let id = stub.id, let earlier = first[id] else {
                if let id = stub.id { first[id] = stub }
                unique.append(definition)
                continue
            }
            let error = StubFileDiagnostic(
                file: stub.file, line: stub.line, field: "id",
                message: "\"\(id)\" is already the id of the stub at \(earlier.file):\(earlier.line)")
            refused.append(RefusedStub(file: stub.file, line: stub.line, route: stub.route, errors: [error]))
        }
        return (unique, refused)
    }
}
