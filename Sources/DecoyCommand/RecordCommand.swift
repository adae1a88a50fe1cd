import ArgumentParser
import Decoy
import DecoyOpenAPI
import DecoyServer
import DecoyStubFiles
import Foundation

/// `decoy record --target URL [DIR]`: a proxy to a real server that writes what passes through
/// as stub files, when it is stopped and on each snapshot; with `--openapi`, it also checks what
/// passes through against OpenAPI documents, and with `--compare STUBS` it records nothing and
/// reports where the real responses differ from the stubs instead.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Proxy to a real server and write what passes through as stub files.",
        discussion: """
            Requests that no stub in the folder answers are sent to the target, and its answers are \
            written into the folder (mappings/ and __files/, WireMock's format) when decoy stops on \
            SIGINT or SIGTERM, and on each POST /__admin/recordings/snapshot. Secrets are hidden as the \
            client's log hides them. See docs/recording.md. With --openapi, each real response is also checked \
            against the document and flagged where it breaks it; with --compare STUBS, nothing is recorded: \
            every request goes to the target and, when decoy stops, a report says where the real responses \
            differ from the stubs of STUBS that match their requests. See docs/keeping-stubs-true.md.
            """
    )

    @Option(help: "The server to record, such as http://127.0.0.1:9000.")
    var target: String

    @Argument(help: "The folder the stub files are written into; its stubs answer instead of the target.")
    var folder: String = Self.defaultFolder

    static let defaultFolder = "stubs"

    @OptionGroup var listen: ListenOptions

    @Flag(help: "Keep only the first answer to a repeated request, instead of a scenario of them all.")
    var noScenarios = false

    @Option(
        help: ArgumentHelp(
            """
            Check every real response against this OpenAPI 3.0 or 3.1 document (JSON or YAML), flagging in the \
            journal, the log and the dashboard those that break it; they pass on unchanged. Repeat it for more.
            """,
            valueName: "spec"))
    var openapi: [String] = []

    @Option(
        name: .customLong("openapi-base-path"),
        help: ArgumentHelp(
            """
            The path requests put before the --openapi documents' paths, such as /api/1.0; "servers" takes the \
            path of each document's first servers URL.
            """,
            valueName: "path"))
    var openapiBasePath: String?

    @Option(
        help: ArgumentHelp(
            """
            Record nothing: send every request to the target and report, when decoy stops, where the real \
            responses differ from the stubs of this folder that match their requests. Exits 1 on a difference.
            """,
            valueName: "stubs"))
    var compare: String?

    @Option(help: "With --compare, how to write the report: text, or json for CI.")
    var format: OpenAPICheckOptions.ReportFormat = .text

    @Option(
        help: """
            What to log: none, requests (a line per request, and a warning for each response that differs) or \
            verbose; requests with --openapi or --compare, none otherwise.
            """)
    var log: LogOption?

    func validate() throws {
        if compare != nil, folder != Self.defaultFolder {
            throw ValidationError("--compare records nothing; give the stubs to compare with it, not a folder.")
        }
        if compare == nil, format != .text { throw ValidationError("--format is the report of --compare; add it.") }
        guard let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false
        else {
            throw ValidationError("--target must be an http or https URL with a host, such as http://127.0.0.1:9000.")
        }
    }

    func run() async throws {
        let registry = StubRegistry()
        var checks: [ProxiedResponseCheck] = []
        let comparison: StubComparison?
        do {
            let specs = try openapi.map { try ServeCommand.spec(at: $0, basePath: openapiBasePath) }
            if !specs.isEmpty { checks.append(StubDriftCheck(specs: specs).proxiedResponseCheck) }
            comparison = try compare.map { folder in
                let stubs = StubRegistry()
                try stubs.load(folder: URL(filePath: folder, directoryHint: .isDirectory), strict: true)
                return StubComparison(stubs: stubs)
            }
        } catch {
            FileHandle.standardError.say("\(error)")
            throw ExitCode.failure
        }
        if let comparison { checks.append(comparison.proxiedResponseCheck) }
        if !checks.isEmpty {
            registry.proxiedResponseCheck = { [checks] request, response in
                checks.flatMap { $0(request, response) }
            }
        }
        let output = LogOutput()
        var configuration = MockServer.Configuration(
            logger: (log ?? (checks.isEmpty ? .none : .requests)).logger(to: output))
        listen.configure(&configuration)
        let server = MockServer(registry: registry, configuration: configuration)
        if let comparison, let compare {
            try await run(server, of: registry, comparing: comparison, from: compare, log: output)
        } else {
            try await record(with: server, into: registry, log: output)
        }
    }

    /// Records into the folder what passes through `server`, whose stubs answer first.
    private func record(with server: MockServer, into registry: StubRegistry, log: LogOutput) async throws {
        let url = URL(filePath: folder, directoryHint: .isDirectory)
        // The server's own, so that the admin API's recordings endpoints see this recording.
        let recorder = server.recorder!
        var options = Recorder.Options()
        options.recording.repeatsAsScenarios = !noScenarios
        options.recording.bodyFiles = .always
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try registry.load(folder: url)
            // Validated above, so the URL is well formed.
            try recorder.start(target: URL(string: target)!, options: options)
        } catch {
            FileHandle.standardError.say("\(error)")
            throw ExitCode.failure
        }
        try listen.start(server)
        FileHandle.standardOutput.say(
            "Decoy is serving a recording of \(target) into \(folder) on \(listen.urls(of: server))")
        try await runUntilSignalled(server, log: log)
        do {
            let mappings = try recorder.stop()
            FileHandle.standardOutput.say("Decoy wrote \(mappings.count) stubs into \(folder).")
        } catch {
            FileHandle.standardError.say("The recording was not written: \(error)")
            throw ExitCode.failure
        }
    }

    /// Sends every request on to the target through `server`, then reports how the real responses
    /// differ from the stubs; exits 1 when one does.
    private func run(
        _ server: MockServer, of registry: StubRegistry, comparing comparison: StubComparison, from stubs: String,
        log: LogOutput
    ) async throws {
        // Validated above, so the URL is well formed.
        try registry.register(
            ProxyStub(to: URL(string: target)!), for: Route(method: nil, path: "/**", priority: Int(Int32.max)))
        try listen.start(server)
        FileHandle.standardOutput.say(
            "Decoy is serving a comparison of \(target) with the stubs of \(stubs) on \(listen.urls(of: server))")
        try await runUntilSignalled(server, log: log)
        let report = comparison.report
        switch format {
        case .text: FileHandle.standardOutput.say("\(report)")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            FileHandle.standardOutput.say(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
        if report.hasDifferences { throw ExitCode.failure }
    }

    /// Serves until SIGINT or SIGTERM, then writes the last of the log, before what follows it.
    private func runUntilSignalled(_ server: MockServer, log: LogOutput) async throws {
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { server.stop() }
        try await server.run()
        log.close()
        withExtendedLifetime(signals) {}
    }
}
