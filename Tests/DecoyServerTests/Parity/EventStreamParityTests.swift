import Clocks
import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An event stream's events, their gaps on a test clock and its fault are the same in every
/// serving: `StubTransport` hands the body over whole once the last event is due, and a
/// `URLSession` reading through `StubURLProtocol` or from the server gets each event when due.
@Suite("Parity: event streams in every serving")
struct EventStreamParityTests {
    static let gap = Duration.milliseconds(100)

    /// Three events a gap apart, then what `ending` says.
    static func registry(_ clock: TestClock<Duration>, then ending: EventStream.Ending) throws -> StubRegistry {
        let registry = StubRegistry(clock: clock)
        let events = (1...3).map { ServerEvent(id: "\($0)", event: "tick", data: "n=\($0)", delay: .fixed(gap)) }
        try registry.register(EventStreamStub(events: events, then: ending), for: .get("/ticks"))
        return registry
    }

    static let wire = (1...3).map { "id: \($0)\nevent: tick\ndata: n=\($0)\n\n" }

    @Test(arguments: [ServingMode.urlProtocol, .server])
    func eachEventArrivesWhenDueAndNotBefore(_ mode: ServingMode) async throws {
        let clock = TestClock()
        let registry = try Self.registry(clock, then: .close)
        try await withIncrementalReader(mode, registry) { reader in
            for count in 1...3 {
                await waitUntilSleeping(clock, limit: endlessWait)
                #expect(reader.text == Self.wire.prefix(count - 1).joined(), "before event \(count)")
                await clock.advance(by: Self.gap)
                await reader.wait { $0.text == Self.wire.prefix(count).joined() }
                #expect(reader.text == Self.wire.prefix(count).joined(), "event \(count) when due")
            }
            await reader.wait { $0.ending != nil }
            #expect(reader.endedWithoutError, "closed after the last: \(String(describing: reader.ending))")
            #expect(reader.contentType == "text/event-stream")
        }
        Self.expectJournaled(registry)
    }

    /// The journal keeps how many events went out, and when on the engine's clock.
    static func expectJournaled(_ registry: StubRegistry) {
        let sent = registry.journal.entries.last?.sentEvents
        #expect(sent?.count == 3)
        #expect(sent?.offsets == [gap, gap * 2, gap * 3])
    }

    @Test func inProcessTheWholeStreamArrivesOnceTheLastEventIsDue() async throws {
        let clock = TestClock()
        let registry = try Self.registry(clock, then: .close)
        let request = Task { try await ServingMode.inProcess.exchange(registry, .get, "/ticks") }
        for _ in 1...3 {
            await waitUntilSleeping(clock, limit: endlessWait)
            await clock.advance(by: Self.gap)
        }
        let outcome = try await request.value
        #expect(outcome.text == Self.wire.joined())
        #expect(outcome.headerFields[.contentType] == "text/event-stream")
        Self.expectJournaled(registry)
    }

    /// A reset after the third event: the three arrive, then the client loses the connection.
    @Test(arguments: ServingMode.allCases)
    func aFaultAfterTheThirdEventBreaksTheStream(_ mode: ServingMode) async throws {
        let clientClock = TestClock()
        let registry = try Self.registry(clientClock, then: .fault(.connectionReset))
        try await withStubbedClient(mode, registry: registry) { [clock = clientClock] client, _ in
            let request = Task { await Outcome.of(.get("/ticks"), on: client, keeping: []) }
            for _ in 1...3 {
                await waitUntilSleeping(clock, limit: endlessWait)
                await clock.advance(by: Self.gap)
            }
            #expect(await request.value == .failure(.connectionLost))
        }
        if mode != .inProcess {
            let clock = TestClock()
            let registry = try Self.registry(clock, then: .fault(.connectionReset))
            try await withIncrementalReader(mode, registry) { reader in
                for _ in 1...3 {
                    await waitUntilSleeping(clock, limit: endlessWait)
                    await clock.advance(by: Self.gap)
                }
                await reader.wait { $0.ending != nil }
                #expect(reader.text == Self.wire.joined(), "every event before the fault")
                #expect(!reader.endedWithoutError, "the fault reaches the reader")
            }
        }
    }

    /// `Last-Event-ID` is a header field like any other: a reconnecting client is matched on it.
    @Test(arguments: ServingMode.allCases)
    func lastEventIDIsMatchedLikeAnyHeader(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            EventStreamStub(events: [ServerEvent(id: "1", data: "first")]), for: .get("/feed"))
        try registry.register(
            EventStreamStub(events: [ServerEvent(id: "2", data: "after 1")]),
            for: .get("/feed").header(HTTPField.Name("Last-Event-ID")!, .equalTo("1")))
        let fresh = try await mode.exchange(registry, .get, "/feed")
        let resumed = try await mode.exchange(
            registry, .get, "/feed", headerFields: [HTTPField.Name("Last-Event-ID")!: "1"])
        #expect(fresh.text == "id: 1\ndata: first\n\n")
        #expect(resumed.text == "id: 2\ndata: after 1\n\n")
    }

    /// Reads a `GET /ticks` incrementally through a session's data delegate, over `mode`.
    private func withIncrementalReader(
        _ mode: ServingMode, _ registry: StubRegistry, _ body: (IncrementalReader) async throws -> Void
    ) async throws {
        let reader = IncrementalReader()
        func read(_ url: URL, on session: URLSession) async throws {
            defer { session.invalidateAndCancel() }
            session.dataTask(with: URLRequest(url: url)).resume()
            try await body(reader)
        }
        switch mode {
        case .urlProtocol:
            try await read(URL(string: "https://api.test/ticks")!, on: .stubbed(by: registry, delegate: reader))
        default:
            try await withMockServer(registry: registry) { server in
                try await read(
                    URL(string: server.baseURL.absoluteString + "/ticks")!,
                    on: URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil))
            }
        }
    }
}

/// What a data task's delegate has received so far, piece by piece.
final class IncrementalReader: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var data = Data()
        var contentType: String?
        var ending: Result<Void, any Error>?
    }

    private let state = Mutex(State())

    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }
    var contentType: String? { state.withLock { $0.contentType } }
    var ending: Result<Void, any Error>? { state.withLock { $0.ending } }
    var endedWithoutError: Bool {
        if case .success = ending { true } else { false }
    }

    /// Polls until `done` holds, for as long as a busy machine may take.
    func wait(until done: (IncrementalReader) -> Bool) async {
        let start = ContinuousClock.now
        while !done(self), ContinuousClock.now - start < endlessWait { try? await Task.sleep(for: .milliseconds(2)) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { $0.ending = error.map { .failure($0) } ?? .success(()) }
    }
}
