import ArgumentParser
import Decoy
import DecoyServer
import DecoyStubFiles
import Foundation
import Logging

/// `decoy serve [DIR]`: loads a stubs folder and serves it until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the stubs in a folder over HTTP."
    )

    @Argument(help: "The folder of stub files.")
    var folder: String = Self.defaultFolder

    static let defaultFolder = "stubs"

    @OptionGroup var listen: ListenOptions

    @Option(help: DelayOption.help, transform: DelayOption.parse)
    var delay: Delay = .none

    @Option(help: "Seeds random delays, to replay a run.")
    var seed: UInt64?

    @Flag(help: "Reload the folder when its files change; a broken edit keeps the previous stubs serving.")
    var watch = false

    @Option(
        help:
            """
            What to log: none, requests (a line per request) or verbose (also why unmatched requests missed the \
            closest stubs).
            """
    )
    var log: LogOption = .requests

    @Option(help: "Append the log to this file instead of standard output.")
    var logFile: String?

    @Option(
        name: [.customLong("journal-limit"), .customLong("max-request-journal-entries")],
        help: "The most requests the journal keeps; older ones are dropped, the total still counts them.")
    var journalLimit = 10_000

    @Option(
        help:
            """
            Bytes of memory each connection has for a request's head and its response's head; a request head that \
            does not fit is answered 431, a response head that does not fit beside it 500.
            """
    )
    var headerMemoryLimit = MockServer.Configuration().headerMemoryLimit

    /// The range `--header-memory-limit` takes: below it libmicrohttpd has no room for an ordinary
    /// exchange, and above it a full connection limit would reserve gigabytes.
    static let headerMemoryLimits = 4 * 1024...1024 * 1024

    @Option(
        help: ArgumentHelp(
            """
            Also answer every operation of this OpenAPI 3.0 or 3.1 document (JSON or YAML) from its examples, \
            checking requests against it; the folder's stubs win. Without the folder argument, a missing ./stubs \
            is no error.
            """,
            valueName: "spec"))
    var openapi: String?

    @Option(
        help: ArgumentHelp(
            """
            Serve the --openapi document's paths under this path, such as /api/1.0; "servers" takes the path of \
            the document's first servers URL.
            """,
            valueName: "path"))
    var basePath: String?

    @Flag(
        help:
            """
            Render every response as a template, as WireMock's --global-response-templating does; without it, \
            only responses with \"transformers\": [\"response-template\"].
            """
    )
    var globalResponseTemplating = false

    @Flag(
        help:
            """
            Refuse to start when any stub file or operation of the --openapi document has an error, as decoy \
            check does, for CI; without it, every valid stub and operation serves and each other is refused by name.
            """
    )
    var strict = false

    @Flag(
        help:
            """
            Set Content-Type from a jsonBody (application/json) or a body file's extension when a stub sets none; \
            WireMock sends none.
            """
    )
    var defaultContentType = false

    @Option(
        name: .customLong("webhook-allowed-host"),
        help: ServeCommand.webhookAllowedHostHelp)
    var webhookAllowedHosts: [String] = []

    /// Shared with `decoy check`, which checks webhooks' hosts as a serve would.
    static let webhookAllowedHostHelp = ArgumentHelp(
        """
        A host webhooks may be sent to beside loopback (127.0.0.0/8, ::1, localhost); repeat it for more. A webhook \
        to another host is not sent, with a warning; its stub is served.
        """,
        valueName: "host")

    @OptionGroup(title: "WireMock's options") var wireMock: WireMockOptions

    mutating func validate() throws {
        try takeWireMockOptions()
        if journalLimit < 1 { throw ValidationError("--journal-limit must be at least 1.") }
        if !Self.headerMemoryLimits.contains(headerMemoryLimit) {
            throw ValidationError(
                """
                --header-memory-limit must be from \(Self.headerMemoryLimits.lowerBound) to \
                \(Self.headerMemoryLimits.upperBound) bytes.
                """
            )
        }
        if log == .none, logFile != nil { throw ValidationError("--log-file needs a log; drop --log none.") }
    }

    /// Puts what WireMock's options ask for where Decoy's own options keep it.
    private mutating func takeWireMockOptions() throws {
        if let rootDir = wireMock.rootDir {
            if folder != Self.defaultFolder, folder != rootDir {
                throw ValidationError("--root-dir and the folder argument name different folders; give one.")
            }
            folder = rootDir
        }
        if let (flag, wanted) = wireMock.log {
            if log != .requests, log != wanted {
                throw ValidationError("\(flag) is --log \(wanted.rawValue); it cannot go with --log \(log.rawValue).")
            }
            log = wanted
        }
    }

    /// Whether there is a folder to serve: with `--openapi`, a missing default one is none.
    private var servesFolder: Bool {
        openapi == nil || folder != Self.defaultFolder || FileManager.default.fileExists(atPath: folder)
    }

    func run() async throws {
        let url = URL(filePath: folder, directoryHint: .isDirectory)
        let registry = StubRegistry(journalLimit: journalLimit, seed: seed, defaultDelay: delay)
        registry.templatesEveryResponse = globalResponseTemplating
        registry.contentTypeFromBody = defaultContentType
        registry.webhookAllowedHosts = Set(webhookAllowedHosts)
        do {
            if let openapi {
                try Self.registerExamples(
                    ofSpecAt: openapi, in: registry, basePath: basePath, strict: strict
                ).forEach(FileHandle.standardOutput.say)
            }
            if servesFolder { Self.show(try registry.load(folder: url, strict: strict), from: folder) }
        } catch {
            FileHandle.standardError.say("\(error)")
            throw ExitCode.failure
        }
        let output: LogOutput
        do {
            output = try logFile.map { path throws(LogOutputError) in try LogOutput(path: path) } ?? LogOutput()
        } catch {
            FileHandle.standardError.say("\(error)")
            throw ExitCode.failure
        }
        var configuration = MockServer.Configuration(
            headerMemoryLimit: headerMemoryLimit, logger: log.logger(to: output))
        listen.configure(&configuration)
        let server = MockServer(registry: registry, configuration: configuration)
        try listen.start(server)
        FileHandle.standardOutput.say(
            """
            Decoy is serving \
            \([servesFolder ? folder : nil, openapi].compactMap { $0 }.joined(separator: " and ")) on \
            \(listen.urls(of: server))
            """
        )
        if listen.adminAccess != .off {
            FileHandle.standardOutput.say("The dashboard is at \(listen.dashboardURL(of: server))")
        }
        let watcher =
            watch && servesFolder
            ? FolderWatcher(url) { [strict] in Self.reload(registry, from: url, named: folder, strict: strict) } : nil
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { server.stop() }
        try await server.run()
        // The stopped server has handed every request's line to the output; this writes them.
        output.close()
        withExtendedLifetime((watcher, signals)) {}
        FileHandle.standardOutput.say("Decoy stopped.")
    }

    private static func reload(_ registry: StubRegistry, from url: URL, named folder: String, strict: Bool) {
        do {
            let report = try registry.reload(folder: url, strict: strict)
            FileHandle.standardOutput.say("Reloaded \(folder):")
            show(report, from: folder)
        } catch {
            FileHandle.standardError.say("Kept the previous stubs; \(error)")
        }
    }

    /// Lists the stubs that serve, then on standard error each refused stub with every problem
    /// and each warning, so that nothing in the folder passes unsaid.
    private static func show(_ report: StubFolderReport, from folder: String) {
        for stub in report.stubs { FileHandle.standardOutput.say("  \(stub)") }
        for stub in report.refused {
            FileHandle.standardError.say("  \(stub.file):\(stub.line): refused:")
            for error in stub.errors { FileHandle.standardError.say("    error: \(error)") }
        }
        for (file, stubs) in report.keptFiles {
            FileHandle.standardError.say(
                "  \(file): has an error; \(count(stubs, "stub")) of its previous version still serve until it is fixed"
            )
        }
        for warning in report.warnings { FileHandle.standardError.say("  warning: \(warning)") }
        FileHandle.standardOutput.say(summary(of: report, from: folder))
    }

    /// What serves from the folder, a broken file's previous stubs counted and named, then how
    /// many stubs are refused and how many warnings there are.
    static func summary(of report: StubFolderReport, from folder: String) -> String {
        let messages = report.messageStubCount > 0 ? " and \(count(report.messageStubCount, "message stub"))" : ""
        var summary = "\(count(report.stubs.count + report.kept.count, "stub"))\(messages) from \(folder)"
        if !report.kept.isEmpty {
            let kept = report.keptFiles.map { "\($0.stubs) of \($0.file)" }.joined(separator: ", ")
            summary += " (\(kept) kept from its previous version)"
        }
        if !report.refused.isEmpty {
            summary += "; \(report.refused.count) refused (listed above, and at /__admin/stub-files)"
        }
        if !report.warnings.isEmpty { summary += "; \(count(report.warnings.count, "warning"))" }
        return summary
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// Runs an action when the process receives one of the given signals, instead of dying.
final class SignalWatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], action: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: action)
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
