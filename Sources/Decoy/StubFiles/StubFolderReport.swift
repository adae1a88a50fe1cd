/// What checking or loading a stubs folder found: its stubs, errors and warnings.
///
/// ```swift
/// let report = StubFolder(url: stubsURL).check()
/// for stub in report.stubs { print(stub) }
/// for problem in report.errors + report.warnings { print(problem) }
/// ```
public struct StubFolderReport: Sendable {
    /// Every stub defined, in file order; when the folder has errors, only those without one.
    public let stubs: [LoadedStub]
    /// The errors; a folder with any is not loaded.
    public let errors: [StubFileDiagnostic]
    /// The warnings, such as unknown fields; they do not stop loading.
    public let warnings: [StubFileDiagnostic]

    /// Whether the folder has no errors and so would load.
    public var isValid: Bool { errors.isEmpty }
}
