import DecoyClient
import Foundation
import Logging
import Testing

@testable import DecoyServer

@Suite("decoy serve's log output")
struct LogOutputTests {
    /// The lines are those swift-log's own `StreamLogHandler` writes, timestamp included.
    @Test func linesAreStreamLogHandlersLines() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "decoy-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try LogOutput(path: path)
        let kept = Kept()
        var batched = Logger(label: "decoy") { BatchingLogHandler(label: $0, output: output) }
        var streamed = Logger(label: "decoy") { StreamLogHandler(label: $0, stream: kept, metadataProvider: nil) }
        for logger in [batched, streamed] {
            logger.info("GET /users/1 → 200 (GET /users/{id}) 0.1 ms")
            logger.debug("not at info")
            logger.warning("with metadata", metadata: ["b": "2", "a": "1"])
        }
        batched.logLevel = .debug
        streamed.logLevel = .debug
        batched.debug("at debug")
        streamed.debug("at debug")
        output.close()
        let written = try String(contentsOfFile: path, encoding: .utf8)
        let expected = kept.text.value.withLock { $0 }
        #expect(written.split(separator: "\n").count == 3)
        // The two may straddle a second; the rest of each line must be the same.
        #expect(withoutTimestamps(written) == withoutTimestamps(expected))
        #expect(
            written.split(separator: "\n").allSatisfy {
                $0.prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#) != nil
            })
    }

    @Test func aLogFileThatCannotBeOpenedIsAClearError() {
        let error = #expect(throws: LogOutputError.self) { try LogOutput(path: "/nonexistent-directory/decoy.log") }
        #expect(
            error?.description == "cannot write the log to /nonexistent-directory/decoy.log: No such file or directory")
    }
}

/// A stream that keeps what `StreamLogHandler` writes, to compare lines with.
struct Kept: TextOutputStream, Sendable {
    final class Text: Sendable {
        let value = Mutex("")
    }

    let text = Text()
    func write(_ string: String) { text.value.withLock { $0 += string } }
}

/// The lines of `text`, each without its leading timestamp.
func withoutTimestamps(_ text: String) -> [Substring] {
    text.split(separator: "\n").map { $0.drop { $0 != " " } }
}
