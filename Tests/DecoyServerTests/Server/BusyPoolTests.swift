import Atomics
import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

/// What waits in the server ends on time while the process's tests keep Swift's global pool busy.
///
/// The server's clients are on other threads and in other processes, with timeouts of their own;
/// in Decoy's own suite an event stream's first event, due at once, came after its client's 15 s
/// timeout, as the task that sent it waited for a pool thread behind the suite's tests.
/// One case at a time: the holds of two would each take part of the pool and wait for the rest.
@Suite("A busy task pool", .serialized)
struct BusyPoolTests {
    /// A stub of each kind whose answer a task of the server awaits, what its client reads, and
    /// what it ends with.
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let stub: any Stub
        let expected: String?

        static func all() throws -> [Case] {
            [
                Case(
                    testDescription: "a delayed answer",
                    stub: StubResponse(text: "late").delayed(.fixed(.milliseconds(50))),
                    expected: "late"),
                Case(
                    testDescription: "an event stream",
                    stub: try EventStreamStub(
                        events: [
                            ServerEvent(data: "first"), ServerEvent(data: "second", delay: .fixed(.milliseconds(20))),
                        ]),
                    expected: "data: second"),
                Case(
                    testDescription: "a throttled body",
                    stub: StubResponse(text: String(repeating: "x", count: 40) + "end").throttled(
                        .chunks(count: 4, over: .milliseconds(60))),
                    expected: "xend"),
                Case(
                    testDescription: "a closure stub", stub: ClosureStub { _ in StubResponse(text: "made") },
                    expected: "made"),
                Case(
                    testDescription: "a fault after a delay",
                    stub: StubResponse.fault(.connectionReset, delay: .fixed(.milliseconds(50))), expected: nil),
            ]
        }
    }

    @Test(arguments: try Case.all())
    func answersWhileThePoolIsHeld(_ stubCase: Case) async throws {
        let registry = StubRegistry()
        try registry.register(stubCase.stub, for: .get("/wait"))
        try await withMockServer(registry: registry) { server in
            let (answer, held) = await PoolHold.whileHeld {
                Self.get("/wait", from: server, until: stubCase.expected)
            }
            let reply = try #require(answer, "the server could not be reached")
            if let expected = stubCase.expected {
                #expect(reply.hasPrefix("HTTP/1.1 200") && reply.contains(expected), "\(reply)")
            } else {
                #expect(!reply.contains("\r\n\r\n"), "no whole head before the fault: \(reply)")
            }
            #expect(held, "answered only once the pool was let go")
        }
    }

    /// What `server` answers to `GET path`, read until `text`, the end or a reset; `nil` when it
    /// cannot be reached. Connected once the pool is held, which may take long enough for an idle
    /// connection to time out.
    static func get(_ path: String, from server: MockServer, until text: String?) -> String? {
        guard let connection = try? RawConnection(port: server.port, receiveTimeout: endlessWait) else { return nil }
        connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return connection.blockingRead(until: text)
    }

    @Test func aWebhookGoesOutWhileThePoolIsHeld() async throws {
        let receiver = StubRegistry()
        try receiver.register(StubResponse(status: .noContent), for: .post("/callbacks"))
        try await withMockServer(registry: receiver) { receiving in
            let registry = StubRegistry()
            let webhook = try Webhook(
                .post, url: receiving.baseURL.absoluteString + "/callbacks", delay: .fixed(.milliseconds(50)))
            try registry.register(StubResponse(text: "fine"), for: Route.get("/wait").webhook(webhook))
            try await withMockServer(registry: registry) { server in
                let (arrived, held) = await PoolHold.whileHeld {
                    guard Self.get("/wait", from: server, until: "fine") != nil else { return 0 }
                    let asked = ContinuousClock.now
                    while receiver.journal.totalCount == 0, ContinuousClock.now - asked < PoolHold.limit {
                        usleep(1_000)
                    }
                    return receiver.journal.totalCount
                }
                #expect(arrived == 1)
                #expect(held, "the webhook went out only once the pool was let go")
            }
        }
    }
}

/// Every thread of Swift's global pool kept busy, as a process's tests keep it.
enum PoolHold {
    /// The longest the pool is held: past it, the threads are let go, however far the client got.
    static let limit = Duration.seconds(5)

    /// Runs `client` on a thread of its own while a spinning task holds each thread of the pool,
    /// and tells whether it was done before any hold reached ``limit``.
    static func whileHeld<Result: Sendable>(_ client: @escaping @Sendable () -> Result) async -> (Result, Bool) {
        // Off the pool: the task awaiting this resumes only once the pool is let go.
        await offThePool {
            let width = ProcessInfo.processInfo.activeProcessorCount
            let holding = ManagedAtomic(0)
            let released = ManagedAtomic(false)
            let outlasted = ManagedAtomic(false)
            for _ in 0..<width {
                Task.detached {
                    holding.wrappingIncrement(ordering: .relaxed)
                    let start = ContinuousClock.now
                    while !released.load(ordering: .relaxed) {
                        if ContinuousClock.now - start > limit {
                            outlasted.store(true, ordering: .relaxed)
                            return
                        }
                    }
                }
            }
            // The suite's own tasks may hold the pool for seconds before every hold starts.
            let asked = ContinuousClock.now
            while holding.load(ordering: .relaxed) < width, ContinuousClock.now - asked < endlessWait { usleep(1_000) }
            let result = client()
            let held = holding.load(ordering: .relaxed) == width && !outlasted.load(ordering: .relaxed)
            released.store(true, ordering: .relaxed)
            return (result, held)
        }
    }
}
