import ArgumentParser
import Decoy
import DecoyStubFiles
import Foundation

/// `decoy check [DIR]`: reports every problem in a stubs folder; exits 0 only when it is valid.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the stub files in a folder and report every problem."
    )

    @Argument(help: "The folder of stub files.")
    var folder: String = "stubs"

    @Flag(help: "Check every response as a template, as decoy serve --global-response-templating reads them.")
    var globalResponseTemplating = false

    @Option(name: .customLong("webhook-allowed-host"), help: ServeCommand.webhookAllowedHostHelp)
    var webhookAllowedHosts: [String] = []

    func run() throws {
        let report = StubFolder(
            url: URL(filePath: folder, directoryHint: .isDirectory), templatesEveryResponse: globalResponseTemplating,
            webhookAllowedHosts: Set(webhookAllowedHosts)
        ).check()
        for error in report.errors { print("error: \(error)") }
        guard report.isValid else {
            print("\(folder): \(report.errors.count) error\(report.errors.count == 1 ? "" : "s")")
            throw ExitCode.failure
        }
        print("\(folder): \(report.stubs.count) stubs, valid")
    }
}
