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

    @Option(help: "The loopback address to listen on: 127.0.0.1 or ::1.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: UInt16 = 8080

    @Flag(help: "Also log the near misses of unmatched requests.")
    var verbose = false

    func run() async throws {
        let logger = Self.logger(verbose: verbose)
        let registry = StubRegistry()
        try load(into: registry, logger: logger)
        let server = MockServer(registry: registry, configuration: .init(host: host, port: port, logger: logger))
        try server.start()
        print("Decoy is serving \(folder) on \(server.baseURL)")
        let signals = SignalWatcher(signals: [SIGINT, SIGTERM]) { server.stop() }
        try await server.run()
        withExtendedLifetime(signals) {}
        print("Decoy stopped.")
    }

    private func load(into registry: StubRegistry, logger: Logger) throws {
        // Filled in by the stub-file loader.
    }

    private static func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: "decoy") { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = .info
            return handler
        }
        logger.logLevel = verbose ? .debug : .info
        return logger
    }
}
