import Decoy
public import Foundation
import Yams

/// A folder of stub files: JSON or YAML, one stub or a list per file, in any subfolder but
/// `__files/`, which holds body files. The format is WireMock's, so a WireMock root
/// (`mappings/` and `__files/`) is a stubs folder as it is. See `docs/stub-files.md`.
///
/// ```swift
/// let report = StubFolder(url: stubsURL).check()
/// print(report.isValid ? "\(report.stubs.count) stubs" : "\(report.errors.count) errors")
/// ```
public struct StubFolder: Sendable {
    /// The file extensions read as stub files.
    static let fileExtensions: Set<String> = ["json", "yaml", "yml"]

    /// The folder.
    public let url: URL
    /// Whether every response is a template, with or without `"transformers": ["response-template"]`:
    /// WireMock's global response templating.
    public var templatesEveryResponse: Bool

    /// Creates a stubs folder at `url`; nothing is read until it is checked or loaded.
    public init(url: URL, templatesEveryResponse: Bool = false) {
        self.url = url
        self.templatesEveryResponse = templatesEveryResponse
    }

    /// Reads and checks every stub file, as `decoy check` does, without registering anything.
    public func check() -> StubFolderReport {
        compile().report
    }

    /// Every stub of the folder, compiled, and what was found along the way.
    func compile() -> (definitions: [StubDefinition], report: StubFolderReport) {
        let root = url.standardizedFileURL.resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else {
            let error = StubFileDiagnostic(file: url.path, message: "no such folder")
            return ([], StubFolderReport(stubs: [], errors: [error]))
        }
        let bodyFiles = BodyFiles(root: root)
        var definitions: [StubDefinition] = []
        var errors: [StubFileDiagnostic] = []
        for file in Self.stubFiles(in: root) {
            let log = DiagnosticLog(file: file)
            let decoder = StubDecoder(
                responses: ResponseDecoder(
                    bodyFiles: bodyFiles, stubFile: file, templatesEveryResponse: templatesEveryResponse))
            definitions += Self.stubNodes(in: root + "/" + file, log: log).compactMap(decoder.decode)
            errors += log.errors.sorted(by: Self.inFileOrder)
        }
        errors += Self.duplicateIDs(in: definitions)
        return (definitions, StubFolderReport(stubs: definitions.map(\.loaded), errors: errors))
    }

    /// The stub files under `root`, relative to it, sorted; hidden files and `__files/` left out.
    private static func stubFiles(in root: String) -> [String] {
        let items = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let item = items?.nextObject() as? String {
            let name = item.split(separator: "/").last ?? ""
            if name == "__files" || name.hasPrefix(".") {
                items?.skipDescendants()
            } else if let dot = name.lastIndex(of: "."),
                fileExtensions.contains(name[name.index(after: dot)...].lowercased())
            {
                files.append(item)
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
        guard let text = String(validating: data, as: UTF8.self) else {
            log.error("cannot be read as UTF-8 text")
            return nil
        }
        do {
            // A JSON tab is whitespace or escaped, never inside a string; YAML forbids it in indentation.
            let yaml = isJSON ? text.replacingOccurrences(of: "\t", with: " ") : text
            // Every value built from the file walks the tree with its aliases expanded, so a few
            // hundred bytes of nested aliases would be billions of values, and a large scalar
            // aliased many times gigabytes of text: refuse them first.
            let aliasedBytes = AliasBound.byteLimit(forFileOf: data.count)
            switch AliasBound.excess(in: yaml, values: data.count + maximumAliasedValues, bytes: aliasedBytes) {
            case .values:
                log.error(
                    "aliases repeat more than \(maximumAliasedValues) values in this file; write them out, or repeat fewer"
                )
                return nil
            case .bytes:
                log.error(
                    "aliases make this file stand for more than \(aliasedBytes) bytes of text; write them out, or repeat fewer"
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

    /// How many values YAML aliases may add to a file, beyond one per byte of it, which no file
    /// without aliases reaches.
    static let maximumAliasedValues = 100_000

    /// Problems are found field by field; they read best in the order of the file.
    private static func inFileOrder(_ a: StubFileDiagnostic, _ b: StubFileDiagnostic) -> Bool {
        (a.line ?? 0, a.column ?? 0) < (b.line ?? 0, b.column ?? 0)
    }

    /// An error for each stub whose `id` an earlier stub has.
    private static func duplicateIDs(in definitions: [StubDefinition]) -> [StubFileDiagnostic] {
        var first: [String: LoadedStub] = [:]
        return definitions.compactMap { definition in
            let stub = definition.loaded
            guard let id = stub.id else { return nil }
            guard let earlier = first[id] else {
                first[id] = stub
                return nil
            }
            return StubFileDiagnostic(
                file: stub.file, line: stub.line, field: "id",
                message: "\"\(id)\" is already the id of the stub at \(earlier.file):\(earlier.line)")
        }
    }
}
