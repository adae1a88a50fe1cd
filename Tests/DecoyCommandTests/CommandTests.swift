@testable import DecoyCommand
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `decoy check` and `decoy serve` as a user runs them: the built executable, its output, its
/// exit status, and what its flags change.
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

    private static let hello = #"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#

    /// Runs `decoy` with `arguments` to its end: its exit status and what it printed.
    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Bundle.main.bundleURL.appending(path: "decoy")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private static func get(_ url: String, headers: [String: String] = [:]) async throws -> (status: Int, text: String) {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func checkSaysAValidFolderIsValid() throws {
        let folder = try Folder(["hello.json": Self.hello])
        let (status, output) = try Self.run(["check", folder.url.path])
        #expect(status == 0)
        #expect(output.hasSuffix("\(folder.url.path): 1 stubs, valid\n"), "\(output)")
    }

    @Test func checkNamesEveryProblemAndFails() throws {
        let folder = try Folder([
            "a.json": #"{"request": {"urlPath": "/a"}, "response": {"status": "ok"}}"#,
            "b.yaml": "request: { metod: GET }\nresponse: { status: 200 }\n",
        ])
        let (status, output) = try Self.run(["check", folder.url.path])
        #expect(status == 1)
        #expect(output.contains(#"error: a.json:1:55: response.status: expected an integer 100…599, found "ok""#), "\(output)")
        #expect(output.contains(#"error: b.yaml:1:12: request.metod: unknown field; did you mean "method"?"#), "\(output)")
        #expect(output.hasSuffix("\(folder.url.path): 2 errors\n"))
    }

    @Test func serveRefusesABrokenFolderAndStartsNothing() throws {
        let folder = try Folder(["a.json": #"{"request": {"urlPath": "/a"}}"#])
        let (status, output) = try Self.run(["serve", folder.url.path, "--port", "0"])
        #expect(status != 0)
        #expect(output.contains(#"a.json:1:1: a stub needs "response" or "responses""#), "\(output)")
        #expect(!output.contains("Decoy is serving"))
    }

    @Test(arguments: [
        (["--no-admin", "--admin-token", "x"], "--admin-token needs the admin API; drop --no-admin."),
        (["--journal-limit", "0"], "--journal-limit must be at least 1."),
        (["--delay", "soon"], #"--delay takes milliseconds: 250, 100-300 or lognormal:80:0.4; got "soon""#),
        (["--delay", "lognormal:80:9"], "--delay lognormal:80:9"),
    ])
    func serveRefusesFlagsThatDoNotGoTogether(arguments: [String], message: String) throws {
        let error = #expect(throws: (any Error).self) { try ServeCommand.parse(arguments) }
        #expect(error.map { ServeCommand.message(for: $0) }?.contains(message) == true, "\(String(describing: error))")
    }

    @Test func theAdminFlagsGuardOrTurnOffTheAdminAPI() async throws {
        let folder = try Folder(["hello.json": Self.hello])
        let guarded = try ServedProcess(arguments: ["serve", folder.url.path, "--port", "0", "--admin-token", "s3cret", "--log", "none"])
        defer { _ = try? guarded.stop(with: SIGTERM) }
        #expect(try await Self.get("\(guarded.baseURL)/__admin/health").status == 401)
        #expect(try await Self.get("\(guarded.baseURL)/__admin/health", headers: ["Authorization": "Bearer s3cret"]).status == 200)

        let off = try ServedProcess(arguments: ["serve", folder.url.path, "--port", "0", "--no-admin", "--log", "none"])
        defer { _ = try? off.stop(with: SIGTERM) }
        let health = try await Self.get("\(off.baseURL)/__admin/health")
        #expect(health.status == 404)
        #expect(health.text.hasPrefix("No stub matches GET /__admin/health."))
    }

    @Test func theDefaultDelayHoldsStubsWithoutOne() async throws {
        let folder = try Folder(["hello.json": Self.hello])
        let server = try ServedProcess(arguments: ["serve", folder.url.path, "--port", "0", "--delay", "300", "--log", "none"])
        defer { _ = try? server.stop(with: SIGTERM) }
        let started = ContinuousClock.now
        #expect(try await Self.get("\(server.baseURL)/hello").text == "hi")
        #expect(ContinuousClock.now - started >= .milliseconds(300))
    }

    /// `--watch` serves an edit once the folder changes, and keeps the previous stubs while an
    /// edit is broken.
    @Test func watchReloadsOnChangeAndKeepsServingThroughABrokenEdit() async throws {
        let folder = try Folder(["hello.json": Self.hello])
        let server = try ServedProcess(arguments: ["serve", folder.url.path, "--port", "0", "--watch", "--log", "none"])
        defer { _ = try? server.stop(with: SIGTERM) }
        func answer(becomes expected: String) async throws -> Bool {
            // The folder is looked at every 500 ms; ten seconds is far past that.
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                if try await Self.get("\(server.baseURL)/hello").text == expected { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
        try folder.write("hello.json", Self.hello.replacingOccurrences(of: #""hi""#, with: #""hello again""#))
        #expect(try await answer(becomes: "hello again"))
        try folder.write("hello.json", #"{"request": {"urlPath": "/hello"}, "response": {"status": "broken"}}"#)
        try await Task.sleep(for: .seconds(1))
        #expect(try await Self.get("\(server.baseURL)/hello").text == "hello again")
    }
}
