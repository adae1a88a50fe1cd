public import Decoy

/// What checking or loading a stubs folder found: the stubs that load, those refused and why,
/// and what was read but not acted on.
///
/// ```swift
/// let report = StubFolder(url: stubsURL).check()
/// for stub in report.stubs { print(stub) }
/// for stub in report.refused { print(stub) }
/// for warning in report.warnings { print(warning) }
/// ```
public struct StubFolderReport: Sendable {
    /// Every stub that loads, in file order.
    public let stubs: [LoadedStub]
    /// Every stub refused, in file order: a file that cannot be read at all is one refused stub.
    public let refused: [RefusedStub]
    /// Every error, by file, then by place in the file; a strict load takes nothing when there is one.
    public var errors: [StubFileDiagnostic] { refused.flatMap(\.errors) }
    /// What was read leniently (as WireMock reads it) or read and not acted on, each with its field.
    public let warnings: [StubFileDiagnostic]

    /// Whether the folder has no errors, so that a strict load takes it.
    public var isValid: Bool { refused.isEmpty }
}
