import Decoy
import DecoyClient
import DecoyServerTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import DecoyServer

@Suite("MockServer's request log")
struct RequestLogTests {
    /// Keeps every line a logger receives, with the thread that handed it over.
    final class Lines: Sendable {
        let lines = Mutex<[(level: Logger.Level, text: String, thread: ObjectIdentifier)]>([])
        /// The threads that answered: a conditional stub decides on the server's own threads.
        let serverThreads = Mutex<Set<ObjectIdentifier>>([])

        var logger: Logger {
            var logger = Logger(label: "test") { _ in Handler(lines: self) }
            logger.logLevel = .debug
            return logger
        }

        struct Handler: LogHandler {
            let lines: Lines
            var logLevel = Logger.Level.trace
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                lines.lines.withLock {
                    $0.append((event.level, event.message.description, ObjectIdentifier(Thread.current)))
                }
            }
        }
    }

    /// Nothing is waited for after `stop()`: it returns once every answered request is logged.
    @Test func stopLogsEveryAnsweredRequestFromTheLogsOwnThread() async throws {
        let registry = StubRegistry()
        let lines = Lines()
        let answered = StubResponse(text: "hi")
        try registry.register(
            ConditionalStub(
                when: { _ in
                    lines.serverThreads.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
                    return true
                }, then: answered, else: answered), for: .get("/hello"))
        let count = 200
        try await withMockServer(registry: registry, configuration: .init(logger: lines.logger)) { server in
            let client = APIClient(baseURL: server.baseURL)
            for _ in 0..<count {
                _ = try await client.send(Resource<String>.get("/hello"))
            }
            _ = try? await client.send(Resource<String>.get("/nope"))
        }
        let logged = lines.lines.withLock { $0 }
        let requests = logged.filter { $0.level == .info }
        #expect(requests.count == count + 1)
        #expect(
            requests.prefix(count).allSatisfy {
                $0.text.wholeMatch(of: #/GET /hello → 200 \(GET /hello\) \d+\.\d ms/#) != nil
            })
        #expect(requests.last?.text.wholeMatch(of: #/GET /nope → 404 \(unmatched\) \d+\.\d ms/#) != nil)
        #expect(
            logged.filter { $0.level == .debug }.map(\.text) == [
                """
                No stub matches GET /nope.\nClosest routes:\n  - GET /hello: path segment 1 is \"nope\", the \
                route expects \"hello\"\n
                """
            ])
        let serverThreads = lines.serverThreads.withLock { $0 }
        #expect(!serverThreads.isEmpty)
        #expect(Set(logged.map(\.thread)).isDisjoint(with: serverThreads))
    }

    /// What a server saw, one record of each kind of answer.
    static let records = [
        RequestLog.Record(
            method: .get, target: "/users/1?x=1", status: 200, fault: nil, answeredBy: .route(.get("/users/{id}")),
            nanoseconds: 140_000),
        RequestLog.Record(
            method: .post, target: "/nope", status: 404, fault: nil,
            answeredBy: .unmatched(body: Data("No stub matches POST /nope.\n".utf8)), nanoseconds: 2_000_000),
        RequestLog.Record(
            method: .get, target: "/reset", status: 500, fault: .connectionReset, answeredBy: .route(.get("/reset")),
            nanoseconds: 0),
        RequestLog.Record(
            method: .get, target: "/__admin/mappings", status: 200, fault: nil, answeredBy: .adminAPI,
            nanoseconds: 1_250_000),
    ]

    /// `decoy serve`'s handler takes the lines in batches, worded straight into its buffer; they
    /// are the lines swift-log's own `StreamLogHandler` writes from the same records, at both levels.
    @Test(arguments: [Logger.Level.info, .debug])
    func batchedLinesAreStreamLogHandlersLines(level: Logger.Level) throws {
        let (written, expected) = try loggedBothWays(at: level) { logger in
            let log = RequestLog(logger: logger)
            for record in Self.records { log.append(record) }
            log.close()
        }
        #expect(written.split(separator: "\n").count == (level == .debug ? 5 : 4))
        // The two may straddle a second; the rest of each line must be the same.
        #expect(withoutTimestamps(written) == withoutTimestamps(expected))
        #expect(
            withoutTimestamps(written).first
                == " info decoy: [DecoyServer] GET /users/1?x=1 → 200 (GET /users/{id}) 0.1 ms")
    }

    @Test func outcomesAreColouredByClass() {
        let worded = Self.records.map { record in
            var bytes: [UInt8] = []
            record.words(into: &bytes, colours: true)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(
            worded == [
                "GET /users/1?x=1 → \u{1B}[32m200\u{1B}[0m (GET /users/{id}) 0.1 ms",
                "POST /nope → \u{1B}[33m404\u{1B}[0m (unmatched) 2.0 ms",
                "GET /reset → \u{1B}[31mfault\u{1B}[0m connectionReset (GET /reset) 0.0 ms",
                "GET /__admin/mappings → \u{1B}[32m200\u{1B}[0m (admin API) 1.3 ms",
            ])
    }
}
