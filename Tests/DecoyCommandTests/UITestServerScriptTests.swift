import DecoyTestSupport
import Foundation
import Testing

/// `scripts/ui-test-server` run as a user runs it, with the `decoy` built beside the tests; each
/// run is bounded by `timeout`, so a script that waits for a line it cannot read fails the test in
/// a minute instead of holding the run for ten.
@Suite("scripts/ui-test-server", .serialized)
struct UITestServerScriptTests {
    private static let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "scripts/ui-test-server").path
    private let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-ui-\(UUID().uuidString)")

    /// What one run of the script printed, and how it ended.
    private struct Run: Sendable {
        let status: Int32?
        let output: String
        let errors: String
    }

    /// Runs the script from `folder` with `options`, then `--` and `command` as `sh -c` runs it.
    private func run(_ options: [String], command: String) async throws -> Run {
        let stubs = folder.appending(path: "stubs")
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        try Data(#"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"body": "hello"}}"#.utf8)
            .write(to: stubs.appending(path: "hello.json"))
        let errors = folder.appending(path: "errors.txt").path
        let decoy = Bundle.main.bundleURL.appending(path: "decoy").path
        let line = (["timeout", "60", "bash", Self.script, stubs.path] + options + ["--", "sh", "-c", command])
            .map(Self.quoted).joined(separator: " ")
        let shell =
            "cd \(Self.quoted(folder.path)) && DECOY=\(Self.quoted(decoy)) exec \(line) 2>\(Self.quoted(errors))"
        return try await offThePool {
            let program = try SpawnedProgram("/bin/sh", ["-c", shell], capturingErrors: false)
            var output = Data()
            while true {
                let piece = program.nextOutput()
                if piece.isEmpty { break }
                output += piece
            }
            let status = program.exitStatus(within: .seconds(70))
            let printed = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            return Run(status: status, output: String(decoding: output, as: UTF8.self), errors: printed)
        }
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    @Test func withHTTPSBesideHTTPTheCommandGetsBothAddresses() async throws {
        let run = try await run(
            ["--port", "0", "--https-port", "0"],
            command: #"printf '%s\n%s\n' "$DECOY_URL" "$DECOY_HTTPS_URL"; curl -s "$DECOY_URL/hello""#)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(run.output)")
        #expect(lines.first?.hasPrefix("http://127.0.0.1:") == true)
        #expect(lines.dropFirst().first?.hasPrefix("https://127.0.0.1:") == true)
        #expect(lines.last == "hello")
    }

    @Test func withHTTPSAloneTheAddressIsTheHTTPSOne() async throws {
        let run = try await run(["--https-port", "0"], command: #"printf '%s %s' "$DECOY_URL" "$DECOY_HTTPS_URL""#)
        #expect(run.status == 0, "\(run.errors)")
        let urls = run.output.split(separator: " ").map(String.init)
        #expect(urls.count == 2 && urls.first == urls.last, "\(run.output)")
        #expect(urls.first?.hasPrefix("https://127.0.0.1:") == true)
    }

    @Test func theDefaultLogIsKeptOutOfTheFolderItRunsFromAndNamed() async throws {
        let run = try await run(["--port", "0"], command: #"curl -s "$DECOY_URL/hello""#)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output == "hello")
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "decoy-serve.log").path))
        let named = run.errors.firstMatch(of: /decoy serve's log is (\S+)/).map { String($0.1) }
        let log = try #require(named, "the script names its log: \(run.errors)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("GET /hello → 200"))
        try? FileManager.default.removeItem(at: URL(filePath: log).deletingLastPathComponent())
    }

    @Test func whatTheServerPrintsAfterStartingReachesStandardError() async throws {
        let run = try await run(["--port", "0"], command: "true")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("Decoy is serving"))
        #expect(run.errors.contains("Decoy stopped."), "the server's last words: \(run.errors)")
    }

    @Test func theCommandsStatusIsTheScripts() async throws {
        let run = try await run(["--port", "0"], command: "exit 3")
        #expect(run.status == 3, "\(run.errors)")
    }
}
