import Decoy
import DecoyOpenAPI
import Foundation

extension ServeCommand {
    /// Registers the examples of the OpenAPI document at `path` in `registry`, below the stub
    /// files; returns the lines that tell what is served and what of the document is not supported.
    static func registerExamples(ofSpecAt path: String, in registry: StubRegistry) throws -> [String] {
        let spec = try OpenAPISpec(contentsOf: URL(filePath: path))
        try registry.registerExamples(of: spec)
        return spec.operations.map { "  \($0) from the examples of \(path)" }
            + spec.unsupported.map { "  not supported: \($0)" }
            + ["\(spec.operations.count) operations from \(path)"]
    }
}
