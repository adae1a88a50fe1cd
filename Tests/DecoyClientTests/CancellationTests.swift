import Clocks
import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyClient

@Suite("Cancellation reaches the transport and the stub delay")
struct CancellationTests {
    /// Remembers whether the call it wraps ended in cancellation.
    final class CancellationWitness: Transport {
        let base: any Transport
        let cancelled = Mutex(false)
        init(_ base: any Transport) { self.base = base }
        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            do {
                return try await base.send(request, body: body)
            } catch {
                cancelled.withLock { $0 = error is CancellationError }
                throw error
            }
        }
    }

    /// A registry on a test clock whose `/slow` stub waits a minute of that clock.
    static func slowRegistry(_ clock: TestClock<Duration>) throws -> StubRegistry {
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse(json: "1", delay: .fixed(.seconds(60))), for: .get("/slow"))
        return registry
    }

    static func expectCancelled<Value>(_ task: Task<Value, any Error>) async {
        let error = await #expect(throws: APIError.self) { try await task.value }
        guard case .transport(let failure, _) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))"); return
        }
        #expect(failure == .cancelled)
    }

    static func waitUntilReceived(_ registry: StubRegistry) async {
        while registry.journal.totalCount == 0 { await Task.yield() }
    }

    @Test func cancellingTheTaskEndsTheStubDelayWithoutTheClockMoving() async throws {
        let clock = TestClock()
        let registry = try Self.slowRegistry(clock)
        let transport = CancellationWitness(StubTransport(registry))
        let client = APIClient(
            baseURL: URL(string: "https://api.test")!, configuration: .init(timeout: nil), transport: transport)
        let task = Task { try await client.send(Resource<Int>.get("/slow")) }
        await Self.waitUntilReceived(registry)
        task.cancel()
        await Self.expectCancelled(task)
        #expect(transport.cancelled.withLock { $0 })
        #expect(clock.now == .init(offset: .zero), "the delay ended by cancellation, not by time")
    }

    @Test func cancellationDuringARetryBackoffStopsRetrying() async throws {
        let clock = TestClock()
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .serviceUnavailable), for: .get("/down"))
        let client = APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(
                timeout: nil, clock: clock,
                retry: RetryPolicy(maxAttempts: 3, wait: .seconds(10), multiplier: 1, jitter: 0)
            ), transport: StubTransport(registry))
        let task = Task { try await client.send(Resource<Void>.get("/down")) }
        await Self.waitUntilReceived(registry)
        task.cancel()
        await Self.expectCancelled(task)
        #expect(registry.journal.totalCount == 1)
    }

    @Test func stoppingACacheThenNetworkStreamCancelsTheNetworkRequest() async throws {
        let clock = TestClock()
        let registry = try Self.slowRegistry(clock)
        let transport = CancellationWitness(StubTransport(registry))
        let cache = MemoryCache()
        await cache.store(
            CachedResponse(response: HTTPResponse(status: .ok), body: Data("0".utf8)),
            for: CacheKey(HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/slow")))
        let client = APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(timeout: nil, cache: ResponseCache(storage: cache), cachePolicy: .cacheThenNetwork),
            transport: transport)
        var values: [Int] = []
        for try await response in client.responses(for: Resource<Int>.get("/slow")) {
            values.append(response.value)
            await Self.waitUntilReceived(registry)
            break
        }
        #expect(values == [0])
        while !transport.cancelled.withLock({ $0 }) { await Task.yield() }
        #expect(clock.now == .init(offset: .zero))
    }
}
