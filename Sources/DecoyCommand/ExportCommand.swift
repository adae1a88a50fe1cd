import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decoy export har [--server URL] [--to FILE]`: a running server's journal as a HAR file.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write what a running decoy received.",
        subcommands: [HARExportCommand.self]
    )
}

/// `decoy export har`: `GET /__admin/requests/har` of a running server, into a file.
struct HARExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Write a running server's request journal as a HAR 1.2 file.",
        discussion: """
            Reads GET /__admin/requests/har of the server, which browsers' devtools, Proxyman and Charles \
            open; each entry's comment names the stub that answered. See docs/recording.md.
            """
    )

    @Option(help: "The running server, as decoy serve printed it.")
    var server: String = "http://127.0.0.1:8080"

    @Option(help: "The file to write; without it, standard output.")
    var to: String?

    @Option(help: "The admin API's token, when decoy serve was given --admin-token.")
    var adminToken: String?

    func run() async throws {
        guard var url = URL(string: server), url.host != nil else {
            throw ValidationError("--server must be an http or https URL, such as http://127.0.0.1:8080.")
        }
        url.append(path: "__admin/requests/har")
        var request = URLRequest(url: url)
        if let adminToken { request.setValue("Bearer \(adminToken)", forHTTPHeaderField: "Authorization") }
        let data: Data
        do {
            let (body, response) = try await URLSession.shared.data(for: request)
            guard let status = (response as? HTTPURLResponse)?.statusCode, status == 200 else {
                throw ValidationError(
                    "\(url.absoluteString) answered \((response as? HTTPURLResponse)?.statusCode ?? 0): "
                        + String(decoding: body, as: UTF8.self))
            }
            data = body
        } catch let error as ValidationError {
            FileHandle.standardError.say(error.message)
            throw ExitCode.failure
        } catch {
            FileHandle.standardError.say("\(url.absoluteString) cannot be reached: \(error.localizedDescription)")
            throw ExitCode.failure
        }
        if let to {
            do {
                try data.write(to: URL(filePath: to), options: .atomic)
            } catch {
                FileHandle.standardError.say("\(to) cannot be written: \(error.localizedDescription)")
                throw ExitCode.failure
            }
        } else {
            FileHandle.standardOutput.write(data)
        }
    }
}
