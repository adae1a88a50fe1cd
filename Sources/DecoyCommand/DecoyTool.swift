import ArgumentParser
import Decoy
import Foundation

/// `decoy`: serve a folder of stub files over HTTP, or check one.
@main
struct DecoyTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoy",
        abstract: "A mock HTTP server for testing API clients.",
        version: version,
        subcommands: [ServeCommand.self, CheckCommand.self, RecordCommand.self, ImportCommand.self, ExportCommand.self]
    )

    /// The version `decoy --version` prints, `decoyVersion`, written in Decoy.
    static let version = decoyVersion

    /// Runs the command line, after refusing WireMock's options that `decoy serve` does not take
    /// with the reason, which the parser cannot give.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ServeCommand.configuration.commandName,
            let refusal = WireMockOptions.refusal(of: arguments.dropFirst())
        {
            FileHandle.standardError.say("Error: \(refusal)\nSee 'decoy serve --help' for more information.")
            exit(withError: ExitCode.validationFailure)
        }
        await main(arguments)
    }
}
