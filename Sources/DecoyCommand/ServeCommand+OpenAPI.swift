import Decoy
import DecoyOpenAPI
import Foundation

extension ServeCommand {
    /// How many places a folded warning names before it counts the rest.
    static let placesShown = 3

    /// Registers the examples of the OpenAPI document at `path` in `registry`, below the stub
    /// files, and has the registry check what its proxies bring back against it; returns the
    /// lines that tell what is served, what is refused, and what of the document is not
    /// supported, one line per kind of warning.
    ///
    /// `basePath` comes before every path, `"servers"` meaning the path of the document's first
    /// server URL. With `strict`, an operation that cannot be served refuses the whole document.
    static func registerExamples(
        ofSpecAt path: String, in registry: StubRegistry, basePath: String? = nil, strict: Bool = false
    ) throws -> [String] {
        let spec = try Self.spec(at: path, basePath: basePath, strict: strict)
        try registry.registerExamples(of: spec)
        registry.proxiedResponseCheck = StubDriftCheck(specs: [spec]).proxiedResponseCheck
        let refused = spec.refused.isEmpty ? "" : "; \(spec.refused.count) refused, answered with 501"
        return spec.operations.map { "  \($0) from the examples of \(path)" }
            + spec.refused.map { "  refused: \($0)" }
            + folded(spec.unsupported).map { "  not supported: \($0)" }
            + failingExamples(of: spec)
            + ["\(spec.operations.count) operations from \(path)\(refused)"]
    }

    /// The OpenAPI document at `path`, its paths under `basePath`, `"servers"` meaning the path
    /// of the document's first server URL.
    static func spec(at path: String, basePath: String?, strict: Bool = false) throws -> OpenAPISpec {
        let url = URL(filePath: path)
        let spec = try OpenAPISpec(
            contentsOf: url, basePath: basePath == "servers" ? "" : basePath ?? "", strict: strict)
        guard basePath == "servers", !spec.serverBasePath.isEmpty else { return spec }
        return try OpenAPISpec(contentsOf: url, basePath: spec.serverBasePath, strict: strict)
    }

    /// One line naming the operations with examples that miss their schemas, which a document
    /// written by hand often has in dozens; what each misses is in ``OpenAPISpec/failingExamples``.
    static func failingExamples(of spec: OpenAPISpec) -> [String] {
        let operations = spec.operations.filter(\.hasExamplesMissingTheirSchemas).map {
            $0.id ?? "\($0.method) \($0.path)"
        }
        guard !operations.isEmpty else { return [] }
        return [
            """
              warning: examples that miss their schemas are served only when Prefer: example=NAME asks for them \
            (the first example that passes, or else a body made from the schema, is served instead), in \
            \(operations.count) operation\(operations.count == 1 ? "" : "s"): \(operations.joined(separator: ", "))
            """
        ]
    }

    /// One line per kind of warning, in the order kinds first appear: a kind in one place as it
    /// is, and in more its count and its first few places.
    static func folded(_ warnings: [String]) -> [String] {
        var kinds: [String] = []
        var places: [String: [String]] = [:]
        for warning in warnings {
            // A warning is "pointer: what"; a pointer holds no ": ".
            guard let colon = warning.range(of: ": ") else {
                kinds.append(warning)
                continue
            }
            let what = String(warning[colon.upperBound...])
            if places[what] == nil { kinds.append(what) }
            places[what, default: []].append(String(warning[..<colon.lowerBound]))
        }
        return kinds.map { what in
            guard let at = places[what] else { return what }
            if at.count == 1 { return "\(at[0]): \(what)" }
            let shown = at.prefix(placesShown).joined(separator: ", ")
            let more = at.count > placesShown ? ", and \(at.count - placesShown) more" : ""
            return "\(what), in \(at.count) places: \(shown)\(more)"
        }
    }
}
