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

    @OptionGroup var openAPI: OpenAPICheckOptions

    func run() throws {
        if !openAPI.openapi.isEmpty { return try checkAgainstOpenAPI() }
        let report = StubFolder(
            url: URL(filePath: folder, directoryHint: .isDirectory), templatesEveryResponse: globalResponseTemplating,
            webhookAllowedHosts: Set(webhookAllowedHosts)
        ).check()
        for error in report.errors { print("error: \(error)") }
        for warning in report.warnings { print("warning: \(warning)") }
        let warnings = report.warnings.isEmpty ? "" : ", \(count(report.warnings.count, "warning"))"
        guard report.isValid else {
            print(
                """
                \(folder): \(count(report.errors.count, "error")) in \(count(report.refused.count, "stub")) that \
                decoy serve would refuse\(warnings)
                """
            )
            throw ExitCode.failure
        }
        print("\(folder): \(count(report.stubs.count, "stub")), valid\(warnings)")
    }

    func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
