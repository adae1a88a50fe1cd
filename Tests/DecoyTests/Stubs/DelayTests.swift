import Clocks
import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Delays, on a test clock")
struct DelayTests {
    @Test(arguments: ServingMode.allCases)
    func fixedDelayHoldsTheAnswerUntilTheClockPassesIt(_ serving: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse(text: "late", delay: .fixed(.milliseconds(500))), for: .get("/slow"))
        let answer = try await exchange(
            serving, registry, "/slow", advancing: clock, by: [.milliseconds(499), .milliseconds(1)])
        #expect(answer.text == "late")
    }

    @Test(arguments: ServingMode.allCases)
    func defaultDelayHoldsStubsWithoutADelayOfTheirOwn(_ serving: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock, defaultDelay: .fixed(.seconds(1)))
        try registry.register(StubResponse(text: "default"), for: .get("/default"))
        try registry.register(StubResponse(text: "own", delay: .fixed(.zero)), for: .get("/own"))
        #expect(try await serving.exchange(registry, .get, "/own").text == "own")
        #expect(try await serving.exchange(registry, .get, "/unmatched").status == 404)
        let answer = try await exchange(
            serving, registry, "/default", advancing: clock, by: [.milliseconds(999), .milliseconds(1)])
        #expect(answer.text == "default")
    }

    @Test func aRandomDefaultDelayReplaysWithTheSeed() async throws {
        func draws() async throws -> [Duration] {
            let registry = StubRegistry(
                clock: ImmediateClock(), seed: 7, defaultDelay: .lognormal(median: .milliseconds(80), sigma: 0.5))
            try registry.register(StubResponse(), for: .get("/any"))
            var delays: [Duration] = []
            for _ in 0..<20 {
                delays.append(try await registry.engine.deliver(StubRequest(method: .get, target: "/any")).delay)
            }
            return delays
        }
        let first = try await draws()
        #expect(try await draws() == first)
        #expect(Set(first).count == 20)
    }

    @Test func uniformDelayIsDrawnFromTheRangeWithTheRegistrySeed() async throws {
        let range = Duration.milliseconds(100)...Duration.milliseconds(200)
        func draws(seed: UInt64) async throws -> [Duration] {
            let registry = StubRegistry(clock: ImmediateClock(), seed: seed)
            try registry.register(StubResponse(delay: .uniform(range)), for: .get("/jitter"))
            var delays: [Duration] = []
            for _ in 0..<50 {
                delays.append(try await registry.engine.deliver(StubRequest(method: .get, target: "/jitter")).delay)
            }
            return delays
        }
        let first = try await draws(seed: 1)
        #expect(first.allSatisfy(range.contains))
        #expect(try await draws(seed: 1) == first)
        #expect(Set(first).count > 40)
    }

    @Test func cancellingTheRequestCancelsTheDelay() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse(delay: .fixed(.seconds(60))), for: .get("/slow"))
        let request = Task { try await ServingMode.inProcess.exchange(registry, .get, "/slow") }
        await waitUntilSleeping(clock)
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
        try await clock.checkSuspension()
    }

    @Test func clientTimeoutMeasuredOnItsClockEndsAStubDelay() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse(delay: .fixed(.seconds(10))), for: .get("/slow"))
        let client = APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(timeout: .seconds(2), clock: clock),
            transport: StubTransport(registry)
        )
        let request = Task { try await client.send(Resource<Void>.get("/slow")) }
        await waitUntilSleeping(clock)
        await clock.advance(by: .seconds(2))
        let error = await #expect(throws: APIError.self) { try await request.value }
        guard case .transport(let failure, _) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))"); return
        }
        #expect(failure == .timedOut)
    }
}

/// Requests `target` through `serving`, then advances `clock` by each of `steps` in turn once
/// something sleeps on it, expecting no answer before the last step; returns the answer.
func exchange(
    _ serving: ServingMode, _ registry: StubRegistry, _ target: String, advancing clock: TestClock<Duration>,
    by steps: [Duration]
) async throws -> Outcome {
    let finished = Mutex(false)
    let request = Task {
        let exchange = try await serving.exchange(registry, .get, target)
        finished.withLock { $0 = true }
        return exchange
    }
    for step in steps {
        await waitUntilSleeping(clock)
        #expect(!finished.withLock { $0 }, "answered before the clock passed \(step)")
        await clock.advance(by: step)
    }
    return try await request.value
}
