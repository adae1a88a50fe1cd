import ArgumentParser
import Decoy
import DecoyServer
import DecoyStubFiles
import Foundation

/// `decoy record --target URL [DIR]`: a proxy to a real server that writes what passes through
/// as stub files, when it is stopped and on each snapshot.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Proxy to a real server and write what passes through as stub files.",
        discussion: """
            Requests that no stub in the folder answers are sent to the target, and its answers are \
            written into the folder (mappings/ and __files/, WireMock's format) when decoy stops on \
            SIGINT or SIGTERM, and on each POST /__admin/recordings/snapshot. Secrets are hidden as the \
            client's log hides them. See docs/recording.md.
            """
    )

    @Option(help: "The server to record, such as http://127.0.0.1:9000.")
    var target: String

    @Argument(help: "The folder the stub files are written into; its stubs answer instead of the target.")
    var folder: String = "stubs"

    @OptionGroup var listen: ListenOptions

    @Flag(help: "Keep only the first answer to a repeated request, instead of a scenario of them all.")
    var noScenarios = false

    func validate() throws {
        guard let url = URL(string: target), ["http", "https"].contains(url.scheme?.lowercased()),
            url.host?.isEmpty == false
        else {
            throw ValidationError("--target must be an http or https URL with a host, such as http://127.0.0.1:9000.")
        }
    }

    func run() async throws {
        let url = URL(filePath: folder, directoryHint: .isDirectory)
        let registry = StubRegistry()
        var configuration = MockServer.Configuration()
        listen.configure(&configuration)
        let server = MockServer(registry: registry, configuration: configuration)
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
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { server.stop() }
        try await server.run()
        withExtendedLifetime(signals) {}
        do {
            let mappings = try recorder.stop()
            FileHandle.standardOutput.say("Decoy wrote \(mappings.count) stubs into \(folder).")
        } catch {
            FileHandle.standardError.say("The recording was not written: \(error)")
            throw ExitCode.failure
        }
    }

}
