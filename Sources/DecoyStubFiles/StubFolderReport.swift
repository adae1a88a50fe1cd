public import Decoy

/// What checking or loading a stubs folder found: its stubs and errors.
///
/// ```swift
/// let report = StubFolder(url: stubsURL).check()
/// for stub in report.stubs { print(stub) }
/// for problem in report.errors { print(problem) }
/// ```
public struct StubFolderReport: Sendable {
    /// Every stub defined, in file order; when the folder has errors, only those without one.
    public let stubs: [LoadedStub]
    /// The errors; a folder with any is not loaded.
    public let errors: [StubFileDiagnostic]

    /// Whether the folder has no errors and so would load.
    public var isValid: Bool { errors.isEmpty }
}
