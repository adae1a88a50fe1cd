import Decoy
import DecoyClient
import DecoyServer
import Foundation
import Logging
import Testing

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
        let server = MockServer(registry: registry, configuration: .init(logger: lines.logger))
        try server.start()
        let client = APIClient(baseURL: server.baseURL)
        let count = 200
        for _ in 0..<count {
            _ = try await client.send(Resource<String>.get("/hello"))
        }
        _ = try? await client.send(Resource<String>.get("/nope"))
        server.stop()
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
                "No stub matches GET /nope.\nClosest routes:\n  - GET /hello: path segment 1 is \"nope\", the route expects \"hello\"\n"
            ])
        let serverThreads = lines.serverThreads.withLock { $0 }
        #expect(!serverThreads.isEmpty)
        #expect(Set(logged.map(\.thread)).isDisjoint(with: serverThreads))
    }
}
