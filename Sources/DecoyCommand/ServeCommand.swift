import ArgumentParser
import Decoy
import DecoyServer
import Foundation
import Logging

/// `decoy serve [DIR]`: loads a stubs folder and serves it until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the stubs in a folder over HTTP."
    )

    @Argument(help: "The folder of stub files.")
    var folder: String = "stubs"

    @Option(help: "The numeric address to listen on: 127.0.0.1 or ::1 for this machine only; another, such as 0.0.0.0, needs --admin-token or --no-admin.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Option(help: DelayOption.help, transform: DelayOption.parse)
    var delay: Delay = .none

    @Option(help: "Seeds random delays, to replay a run.")
    var seed: UInt64?

    @Flag(help: "Reload the folder when its files change; a broken edit keeps the previous stubs serving.")
    var watch = false

    @Option(help: "What to log: none, requests (a line per request) or verbose (also why unmatched requests missed the closest stubs).")
    var log: LogOption = .requests

    @Option(help: "Append the log to this file instead of standard output.")
    var logFile: String?

    @Flag(help: "Turn off the admin API under /__admin.")
    var noAdmin = false

    @Option(help: "Require this bearer token for the admin API.")
    var adminToken: String?

    @Option(help: "The most requests the journal keeps; older ones are dropped, the total still counts them.")
    var journalLimit = 10_000

    @Flag(help: "Render every response as a template, as WireMock's --global-response-templating does; without it, only responses with \"transformers\": [\"response-template\"].")
    var globalResponseTemplating = false

    func validate() throws {
        if noAdmin, adminToken != nil { throw ValidationError("--admin-token needs the admin API; drop --no-admin.") }
        if journalLimit < 1 { throw ValidationError("--journal-limit must be at least 1.") }
        if log == .none, logFile != nil { throw ValidationError("--log-file needs a log; drop --log none.") }
    }

    func run() async throws {
        let url = URL(filePath: folder, directoryHint: .isDirectory)
        let registry = StubRegistry(journalLimit: journalLimit, seed: seed, defaultDelay: delay)
        registry.templatesEveryResponse = globalResponseTemplating
        do {
            Self.show(try registry.load(folder: url), from: folder)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        let output: LogOutput
        do {
            output = try logFile.map { path throws(LogOutputError) in try LogOutput(path: path) } ?? LogOutput()
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitCode.failure
        }
        let access: MockServer.AdminAccess = noAdmin ? .off : adminToken.map { .token($0) } ?? .open
        let server = MockServer(registry: registry, configuration: .init(host: host, port: port, logger: log.logger(to: output), adminAccess: access))
        try server.start()
        Self.say("Decoy is serving \(folder) on \(server.baseURL)")
        let watcher = watch ? FolderWatcher(url) { Self.reload(registry, from: url, named: folder) } : nil
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { server.stop() }
        try await server.run()
        // The stopped server has handed every request's line to the output; this writes them.
        output.close()
        withExtendedLifetime((watcher, signals)) {}
        Self.say("Decoy stopped.")
    }

    private static func reload(_ registry: StubRegistry, from url: URL, named folder: String) {
        do {
            let report = try registry.reload(folder: url)
            say("Reloaded \(folder):")
            show(report, from: folder)
        } catch {
            FileHandle.standardError.write(Data("Kept the previous stubs; \(error)\n".utf8))
        }
    }

    private static func show(_ report: StubFolderReport, from folder: String) {
        for stub in report.stubs { say("  \(stub)") }
        say("\(report.stubs.count) stubs from \(folder)")
    }

    /// Writes a line at once: `print` buffers when the output is a file or pipe, and scripts that
    /// wait for the URL line would wait for ever.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
