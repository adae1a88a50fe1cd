import ArgumentParser
import DecoyTestSupport
import Foundation
import Testing

@testable import DecoyCommand

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("decoy serve's log")
struct ServeLogTests {
    @Test func logFileWithoutALogIsRefused() {
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--log", "none", "--log-file", "x.log"]) }
        #expect(throws: (any Error).self) { try ServeCommand.parse(["--log", "loud"]) }
        #expect((try? ServeCommand.parse(["--log", "verbose", "--log-file", "x.log"]))?.log == .verbose)
    }

    /// `decoy serve` itself, stopped by a signal right after its last answer: every request it
    /// answered is in the log file, though lines are written in batches.
    @Test(arguments: [SIGTERM, SIGINT])
    func everyAnsweredRequestIsLoggedWhenStoppedBySignal(_ signal: Int32) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#.utf8
        )
        .write(to: folder.appending(path: "hello.json"))
        let log = folder.appending(path: "requests.log").path
        let server = try await ServedProcess.start(arguments: ["serve", folder.path, "--port", "0", "--log-file", log])
        let session = URLSession(configuration: .ephemeral)
        let count = 300
        for _ in 0..<count {
            let (data, _) = try await session.data(from: URL(string: "\(server.baseURL)/hello")!)
            #expect(data == Data("hi".utf8))
        }
        let status = try await server.stop(with: signal)
        #expect(status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.allSatisfy { $0.contains("info decoy: [DecoyServer] GET /hello → 200 (GET /hello) ") })
    }
}

/// The `decoy` executable built beside the tests, serving until it is stopped.
///
/// Starting and stopping it block on its output and exit, so they run on a dispatch queue: on
/// the cooperative pool, two of them would hold both of a 2-core machine's threads, and every
/// other test would stall until the processes had started.
final class ServedProcess: Sendable {
    let program: SpawnedProgram
    let baseURL: String
    /// The HTTPS URL, when it serves HTTPS too (`--https-port`).
    let httpsBaseURL: String?
    /// What it printed up to the line that says where it serves, that line and what came with it.
    let startOutput: String

    /// Starts `decoy` with `arguments` and returns once it says where it serves.
    static func start(arguments: [String]) async throws -> ServedProcess {
        try await offThePool { try ServedProcess(arguments: arguments) }
    }

    private init(arguments: [String]) throws {
        // The tests run from a bundle in the products folder, where `decoy` is built too.
        let decoy = Bundle.main.bundleURL.appending(path: "decoy").path
        program = try SpawnedProgram(decoy, arguments, capturingErrors: false)
        var seen = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let data = program.nextOutput()
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let match = seen.firstMatch(of: #/Decoy is serving .* on (https?://[^\s]+)(?: and (https://[^\s]+))?\n/#)
            {
                baseURL = String(match.1)
                httpsBaseURL = match.2.map(String.init) ?? (baseURL.hasPrefix("https") ? baseURL : nil)
                startOutput = seen
                return
            }
        }
        program.send(SIGTERM)
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "decoy serve did not start: \(seen)"])
    }

    /// Sends `signal` and waits, at most ten seconds, for the exit status.
    func stop(with signal: Int32) async throws -> Int32 {
        try await offThePool { [program] in
            program.send(signal)
            guard let status = program.exitStatus(within: .seconds(10)) else {
                program.send(SIGKILL)
                let reason = "decoy serve did not stop on signal \(signal)"
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: reason])
            }
            return status
        }
    }

    /// Asks it to stop and does not wait: for a test's `defer`, where nothing can be awaited.
    func terminate() {
        program.send(SIGTERM)
    }
}
