import ArgumentParser
import Foundation
import Testing

@testable import DecoyCommand

/// `decoy check` and `decoy serve`'s flags as the command line reads them. (The executable
/// itself is run by the log and remote tests; each more launch risks Foundation's `Process.run`
/// crash on Linux, swift-corelibs-foundation#5472.)
@Suite("decoy check and serve")
struct CommandTests {
    /// A stubs folder of its own for one test, removed afterwards.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "decoy-command-\(UUID().uuidString)")

        init(_ files: [String: String]) throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: url.appending(path: name), options: .atomic)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    private static let hello =
        #"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#

    @Test func checkPassesAValidFolderAndFailsABrokenOne() throws {
        let valid = try Folder(["hello.json": Self.hello])
        try CheckCommand.parse([valid.url.path]).run()
        let broken = try Folder(["a.json": #"{"request": {"urlPath": "/a"}, "response": {"status": "ok"}}"#])
        #expect(throws: ExitCode.failure) { try CheckCommand.parse([broken.url.path]).run() }
    }

    @Test func checkReadsEveryResponseAsATemplateWithGlobalResponseTemplating() throws {
        let folder = try Folder([
            "echo.json": #"{"request": {"urlPath": "/echo"}, "response": {"body": "{{shout request.path}}"}}"#
        ])
        try CheckCommand.parse([folder.url.path]).run()
        #expect(throws: ExitCode.failure) {
            try CheckCommand.parse([folder.url.path, "--global-response-templating"]).run()
        }
        #expect(try ServeCommand.parse(["--global-response-templating"]).globalResponseTemplating)
    }

    @Test func headerMemoryLimitDefaultsToTheServersAndTakesBytes() throws {
        #expect(try ServeCommand.parse([]).headerMemoryLimit == 32 * 1024)
        #expect(try ServeCommand.parse(["--header-memory-limit", "65536"]).headerMemoryLimit == 65_536)
    }

    @Test(arguments: [
        (["--no-admin", "--admin-token", "x"], "--admin-token needs the admin API; drop --no-admin."),
        (["--journal-limit", "0"], "--journal-limit must be at least 1."),
        (["--header-memory-limit", "1024"], "--header-memory-limit must be from 4096 to 1048576 bytes."),
        (["--delay", "soon"], #"--delay takes milliseconds: 250, 100-300 or lognormal:80:0.4; got "soon""#),
        (["--delay", "lognormal:80:9"], "--delay lognormal:80:9"),
    ])
    func serveRefusesFlagsThatDoNotGoTogether(arguments: [String], message: String) throws {
        let error = #expect(throws: (any Error).self) { try ServeCommand.parse(arguments) }
        #expect(error.map { ServeCommand.message(for: $0) }?.contains(message) == true, "\(String(describing: error))")
    }
}
