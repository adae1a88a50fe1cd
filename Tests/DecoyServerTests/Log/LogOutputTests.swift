import DecoyClient
import Foundation
import Logging
import Testing

@testable import DecoyServer

@Suite("decoy serve's log output")
struct LogOutputTests {
    /// The lines are those swift-log's own `StreamLogHandler` writes, timestamp included.
    @Test func linesAreStreamLogHandlersLines() throws {
        let (written, expected) = try loggedBothWays(at: .info) { logger in
            logger.info("GET /users/1 → 200 (GET /users/{id}) 0.1 ms")
            logger.debug("not at info")
            logger.warning("with metadata", metadata: ["b": "2", "a": "1"])
            logger.logLevel = .debug
            logger.debug("at debug")
        }
        #expect(written.split(separator: "\n").count == 3)
        // The two may straddle a second; the rest of each line must be the same.
        #expect(withoutTimestamps(written) == withoutTimestamps(expected))
        #expect(
            written.split(separator: "\n").allSatisfy {
                $0.prefixMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} /#) != nil
            })
    }

    /// Each flush hands its emptied buffer back for the next lines: across batches of every size,
    /// every line is written once, in order.
    @Test func linesWrittenAcrossFlushesArriveOnceInOrder() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "decoy-log-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try LogOutput(path: path)
        var next = 0
        for batch in [1, 3_000, 10, 20_000, 0, 500] {
            output.append { lines in
                for _ in 0..<batch {
                    lines.line { $0 += Array("line \(next)".utf8) }
                    next += 1
                }
            }
            output.flush()
        }
        output.close()
        let numbers = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: " ").last.map(String.init)
        }
        #expect(numbers == (0..<next).map { Optional("\($0)") })
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

/// What `log` writes through `decoy serve`'s handler, to a file, and through swift-log's own
/// `StreamLogHandler`, each logger starting at `level`.
func loggedBothWays(at level: Logger.Level, _ log: (inout Logger) -> Void) throws -> (batched: String, streamed: String)
{
    let path = FileManager.default.temporaryDirectory.appending(path: "decoy-log-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try LogOutput(path: path)
    let kept = Kept()
    var batched = Logger(label: "decoy") { BatchingLogHandler(label: $0, output: output) }
    var streamed = Logger(label: "decoy") { StreamLogHandler(label: $0, stream: kept, metadataProvider: nil) }
    batched.logLevel = level
    streamed.logLevel = level
    log(&batched)
    log(&streamed)
    output.close()
    return (try String(contentsOfFile: path, encoding: .utf8), kept.text.value.withLock { $0 })
}
