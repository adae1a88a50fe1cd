import ArgumentParser
import Decoy
import DecoyStubFiles
import Foundation

/// `decoy import har FILE [--to DIR]`: traffic captured elsewhere, turned into stub files.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn captured traffic into stub files.",
        subcommands: [HARImportCommand.self]
    )
}

/// `decoy import har FILE [--to DIR]`: a HAR 1.2 file, from browsers' devtools, Proxyman, Charles,
/// Fiddler or mitmproxy, as stub files.
struct HARImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write the entries of a HAR 1.2 file as stub files.",
        discussion: """
            One stub file per request (a repeated request's answers as a sequence), bodies in __files/, \
            secrets hidden as decoy record hides them. Entries for several hosts get a Host matcher each, \
            or a folder per host with --host-folders. An entry that cannot be read is named on standard \
            error, and the others are imported. See docs/recording.md.
            """
    )

    @Argument(help: "The HAR file.")
    var file: String

    @Option(help: "The stubs folder to write into.")
    var to: String = "stubs"

    @Option(name: .customLong("host"), help: "Keep only entries for this host (repeatable).")
    var hosts: [String] = []

    @Option(help: "Keep only entries whose path starts with this, such as /api/.")
    var pathPrefix: String?

    @Option(
        name: .customLong("resource-type"),
        help: "Keep only entries of this resource type, such as xhr or fetch (repeatable).")
    var resourceTypes: [String] = []

    @Flag(help: "Write a folder per host instead of a Host matcher on each stub.")
    var hostFolders = false

    func run() throws {
        var importer = HARImport()
        importer.hosts = Set(hosts)
        importer.pathPrefix = pathPrefix
        importer.resourceTypes = Set(resourceTypes)
        importer.hostStubs = hostFolders ? .folders : .matcher
        do {
            let report = try importer.write(
                file: URL(filePath: file), to: URL(filePath: to, directoryHint: .isDirectory))
            for problem in report.problems { FileHandle.standardError.say(problem) }
            FileHandle.standardOutput.say(
                "Decoy imported \(report.imported) entries of \(file) into \(report.written.count) stubs in \(to)"
                    + (report.skipped.isEmpty ? "." : "; \(report.skipped.count) left out."))
        } catch {
            // A file's own problem, without the words of a stubs folder's.
            let problems = error.stubFileErrors.map(\.description)
            FileHandle.standardError.say(problems.isEmpty ? "\(error)" : problems.joined(separator: "\n"))
            throw ExitCode.failure
        }
    }
}
