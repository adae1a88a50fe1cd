import ArgumentParser

/// `decoy`: serve a folder of stub files over HTTP, or check one.
@main
struct DecoyTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decoy",
        abstract: "A mock HTTP server for testing API clients.",
        subcommands: [ServeCommand.self, CheckCommand.self, RecordCommand.self]
    )
}
