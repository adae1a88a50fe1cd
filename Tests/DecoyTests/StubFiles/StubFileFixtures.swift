import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

/// Where the stub file tests find their folders, and a scratch folder for the broken ones.
enum StubFileFixtures {
    /// A folder under `Fixtures/StubFiles`.
    static func folder(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures/StubFiles/\(name)", withExtension: nil)!
    }

    /// The example `stubs/` folder at the root of the repository, which `decoy serve` serves.
    static let examples = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "stubs")
}

/// A folder in the temporary directory, made from files given as text, removed when done.
struct ScratchFolder: ~Copyable {
    let url: URL

    /// Creates the folder with `files`, paths relative to it.
    init(_ files: [String: String] = [:]) throws {
        url = FileManager.default.temporaryDirectory.appending(path: "decoy-stubs-\(UUID().uuidString)")
        for (path, text) in files { try write(path, text) }
    }

    /// Writes `text` to `path`, relative to the folder, making folders as needed.
    func write(_ path: String, _ text: String) throws {
        let file = url.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Makes `path`, relative to the folder, a symbolic link to `destination`.
    func link(_ path: String, to destination: String) throws {
        let file = url.appending(path: path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: destination)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
