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
    /// serving its previous stubs, which are listed in ``kept``, not here.
    public let stubs: [LoadedStub]
    /// On a reload, the stubs that a file's previous version registered and that still serve, in
    /// file order, because the file now has an error; the new version of such a file registers nothing.
    public let kept: [LoadedStub]
    /// Every stub refused, in file order: a file that cannot be read at all is one refused stub.
    /// A test that must fail on any refused stub checks `report.refused.isEmpty`.
    public let refused: [RefusedStub]
    /// Every error, by file, then by place in the file; a strict load takes nothing when there is one.
    public var errors: [StubFileDiagnostic] { refused.flatMap(\.errors) }
    /// What was read leniently (as WireMock reads it) or read and not acted on, each with its field.
    public let warnings: [StubFileDiagnostic]

    /// How many message stubs (WireMock's `message-mappings/`) load.
    public let messageStubCount: Int

    /// Whether the folder has no errors, so that a strict load takes it.
    public var isValid: Bool { refused.isEmpty }

    /// A line per stub that loads (`users.yaml:21: GET /users/{id} "Get a user"`), one per stub
    /// kept from a broken file's previous version (`orders.json:3: kept from the previous version:
    /// GET /orders`), one per refused stub (`orders.json:3: refused: response.status: expected …`),
    /// then one per warning.
    public var description: String {
        let kept = kept.map { "\($0.file):\($0.line): kept from the previous version: \($0.route)" }
        return (stubs.map(\.description) + kept + refused.map(\.description) + warnings.map(\.description))
            .joined(separator: "\n")
    }

    /// The files whose previous stubs still serve, each with how many, in file order.
    package var keptFiles: [(file: String, stubs: Int)] {
        var files: [(file: String, stubs: Int)] = []
        for stub in kept {
            if files.last?.file == stub.file { files[files.count - 1].stubs += 1 } else { files.append((stub.file, 1)) }
        }
        return files
    }

    package init(
        stubs: [LoadedStub], kept: [LoadedStub] = [], refused: [RefusedStub], warnings: [StubFileDiagnostic],
        messageStubCount: Int = 0
    ) {
        (self.stubs, self.kept, self.refused, self.warnings) = (stubs, kept, refused, warnings)
        self.messageStubCount = messageStubCount
    }
}
