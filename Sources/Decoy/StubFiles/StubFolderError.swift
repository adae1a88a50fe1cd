/// Why a stubs folder was not loaded: every error found in it, and the warnings too.
///
/// Loading stops at nothing: each file is checked in full, so one run shows every problem.
public struct StubFolderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors, by file, then by place in the file.
    public let errors: [StubFileDiagnostic]
    /// The warnings, such as unknown fields, found along the way.
    public let warnings: [StubFileDiagnostic]

    /// Creates the error for `errors`, which is not empty, and `warnings`.
    public init(errors: [StubFileDiagnostic], warnings: [StubFileDiagnostic] = []) {
        self.errors = errors
        self.warnings = warnings
    }

    /// A headline with the number of errors, then one line per error.
    public var description: String {
        let headline = errors.count == 1 ? "The stubs folder has an error:" : "The stubs folder has \(errors.count) errors:"
        return ([headline] + errors.map(\.description)).joined(separator: "\n")
    }
}
