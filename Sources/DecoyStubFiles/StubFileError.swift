/// Why stub files were not taken: every error found in a stubs folder, or in one stub-file
/// document sent to the admin API.
///
/// Loading stops at nothing: each file is checked in full, so one run shows every problem.
public struct StubFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors, by file, then by place in the file.
    public let errors: [StubFileDiagnostic]

    /// Creates the error for `errors`, which is not empty.
    public init(errors: [StubFileDiagnostic]) {
        self.errors = errors
    }

    /// A headline with the number of errors, then one line per error.
    public var description: String {
        let headline =
            errors.count == 1 ? "The stubs folder has an error:" : "The stubs folder has \(errors.count) errors:"
        return ([headline] + errors.map(\.description)).joined(separator: "\n")
    }
}
