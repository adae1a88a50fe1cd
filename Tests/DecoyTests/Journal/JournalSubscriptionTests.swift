import Decoy
import DecoyTestSupport
import DecoyTesting
import HTTPTypes
import Testing

@Suite("Journal subscription")
struct JournalSubscriptionTests {
    private func registry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "ok"), for: .get("/ok"))
        return registry
    }

    private func send(_ registry: StubRegistry, _ targets: String...) async throws {
        for target in targets { _ = try await ServingMode.inProcess.exchange(registry, .get, target) }
    }

    @Test func aSubscriberGetsTheEntriesRecordedAfterItSubscribedInOrder() async throws {
        let registry = try registry()
        try await send(registry, "/before")
        let subscription = registry.journal.subscribe(capacity: 10)
        defer { subscription.cancel() }
        try await send(registry, "/ok", "/missing", "/ok?second")
        let batch = try #require(await subscription.next())
        #expect(batch.entries.map(\.request.target) == ["/ok", "/missing", "/ok?second"])
        #expect(batch.entries.map(\.sequence) == [2, 3, 4])
        #expect(batch.entries.map(\.isMatched) == [true, false, true])
        #expect(batch.skipped == 0)
    }

    @Test func aReaderThatFallsBehindIsToldHowManyItMissed() async throws {
        let registry = try registry()
        let subscription = registry.journal.subscribe(capacity: 2)
        defer { subscription.cancel() }
        try await send(registry, "/1", "/2", "/3", "/4", "/5")
        let batch = try #require(await subscription.next())
        #expect(batch.entries.map(\.request.target) == ["/1", "/2"])
        #expect(batch.skipped == 3)
        try await send(registry, "/6")
        let next = try #require(await subscription.next())
        #expect(next.entries.map(\.request.target) == ["/6"])
        #expect(next.skipped == 0)
    }

    @Test func aWaitingReaderWakesForTheNextEntry() async throws {
        let registry = try registry()
        let subscription = registry.journal.subscribe(capacity: 10)
        defer { subscription.cancel() }
        async let batch = subscription.next()
        try await send(registry, "/ok")
        #expect(await batch?.entries.map(\.request.target) == ["/ok"])
    }

    @Test func cancellingEndsAWaitingReaderAndStopsTheEntries() async throws {
        let registry = try registry()
        let subscription = registry.journal.subscribe(capacity: 10)
        async let batch = subscription.next()
        subscription.cancel()
        #expect(await batch == nil)
        try await send(registry, "/ok")
        #expect(await subscription.next() == nil)
    }

    @Test func cancellingTheWaitingTaskEndsItsWait() async throws {
        let registry = try registry()
        let subscription = registry.journal.subscribe(capacity: 10)
        defer { subscription.cancel() }
        let reader = Task { await subscription.next() }
        reader.cancel()
        #expect(await reader.value == nil)
    }

    @Test func aResetKeepsItsSubscribers() async throws {
        let registry = try registry()
        let subscription = registry.journal.subscribe(capacity: 10)
        defer { subscription.cancel() }
        registry.journal.reset()
        try await send(registry, "/ok")
        #expect(await subscription.next()?.entries.map(\.sequence) == [1])
    }
}
