public import Decoy

/// What checking or loading a stubs folder found: the stubs that load, those refused and why,
/// and what was read but not acted on.
///
/// ```swift
/// let report = try registry.load(folder: stubsURL)
/// print("\(report.stubs.count) stubs serve, \(report.refused.count) refused")
/// ```
public struct StubFolderReport: Sendable, CustomStringConvertible {
    /// Every stub that loads, in file order: after a load, those the registry serves
    /// (`report.stubs.count` stubs); after a reload, a file whose new version is refused keeps
    /// serving its previous stubs, which are not listed again.
    public let stubs: [LoadedStub]
    /// Every stub refused, in file order: a file that cannot be read at all is one refused stub.
    /// A test that must fail on any refused stub checks `report.refused.isEmpty`.
    public let refused: [RefusedStub]
    /// Every error, by file, then by place in the file; a strict load takes nothing when there is one.
    public var errors: [StubFileDiagnostic] { refused.flatMap(\.errors) }
    /// What was read leniently (as WireMock reads it) or read and not acted on, each with its field.
    public let warnings: [StubFileDiagnostic]

    /// Whether the folder has no errors, so that a strict load takes it.
    public var isValid: Bool { refused.isEmpty }

    /// A line per stub that loads (`users.yaml:21: GET /users/{id} "Get a user"`), one per refused
    /// stub (`orders.json:3: refused: response.status: expected …`), then one per warning.
    public var description: String {
        (stubs.map(\.description) + refused.map(\.description) + warnings.map(\.description)).joined(separator: "\n")
    }
}
