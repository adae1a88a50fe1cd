import Foundation
import Yams

/// One stub, or one request pattern, sent as JSON text rather than read from a folder: what
/// the admin API receives. It is read by the same decoders as stub files, so it takes the same
/// fields and its errors name the field and place the same way.
enum StubDocument {
    /// The stub in `data`; its `bodyFileName` is looked up in `folder`, and refused without one.
    static func stub(_ data: Data, source: String, folder: URL?) -> Result<StubDefinition, StubFolderError> {
        let log = DiagnosticLog(file: source)
        let root = folder.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
        let decoder = StubDecoder(responses: ResponseDecoder(bodyFiles: BodyFiles(root: root), stubFile: source))
        let definition = object(data, log: log).flatMap(decoder.decode)
        return finish(definition, log)
    }

    /// The request pattern in `data`: the fields of a stub's `request`.
    static func requestPattern(_ data: Data, source: String) -> Result<CompiledRoute, StubFolderError> {
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

    private static func finish<Value>(_ value: Value?, _ log: DiagnosticLog) -> Result<Value, StubFolderError> {
        guard let value, log.errors.isEmpty else {
            return .failure(StubFolderError(errors: log.errors, warnings: log.warnings))
        }
        return .success(value)
    }
}

extension RequestPattern {
    /// Reads a request pattern written as a stub file's `request`, in JSON: WireMock's
    /// `method`, `url…`, `queryParameters`, `headers`, `cookies` and `bodyPatterns`.
    public init(json data: Data, source: String = "request pattern") throws(StubFolderError) {
        self.init(compiled: try StubDocument.requestPattern(data, source: source).get())
    }
}
