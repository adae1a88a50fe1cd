import Clocks
import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// `APIClient.events(for:)` reads a plain `text/event-stream` stub, paced on the engine's clock,
/// alike through `StubTransport`, `StubURLProtocol` and the server.
@Suite("Parity: the client of event streams")
struct EventsParityTests {
    struct Score: Decodable, Sendable, Equatable {
        let home: Int
        let away: Int
    }

    static let stream = StubResponse(
        headerFields: [.contentType: "text/event-stream"],
        text: """
            retry: 500

            id: 1
            event: goal
            data: {"home": 1, "away": 0}

            : a comment, ignored
            id: 2
            data: {"home": 1,
            data:  "away": 1}


            """)

    /// Each event is decoded when its piece is due on the test clock; when the stream ends, the
    /// client waits the stream's `retry` on its clock and reconnects with the last event id.
    @Test(arguments: ServingMode.allCases)
    func eventsArriveWhenDueAndTheClientReconnectsWithTheLastID(_ mode: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            SequenceStub(
                first: [Self.stream.throttled(.chunks(count: 2, over: .seconds(2)))],
                then: StubResponse(
                    headerFields: [.contentType: "text/event-stream"],
                    text: "id: 3\ndata: {\"home\": 2, \"away\": 1}\n\n")
            ), for: .get("/score"))
        try await withStubbedClient(mode, registry: registry, configuration: .init(clock: clock)) { client, _ in
            var events = client.events(for: Resource<Score>.get("/score")).makeAsyncIterator()
            await waitUntilSleeping(clock, limit: endlessWait)
            await clock.advance(by: .seconds(1))
            let goal = try await events.next()
            #expect(goal?.id == "1")
            #expect(goal?.type == "goal")
            #expect(goal?.data == #"{"home": 1, "away": 0}"#)
            #expect(goal?.value == Score(home: 1, away: 0))
            await waitUntilSleeping(clock, limit: endlessWait)
            await clock.advance(by: .seconds(1))
            let equaliser = try await events.next()
            #expect(equaliser?.id == "2")
            #expect(equaliser?.type == "message")
            #expect(equaliser?.data == "{\"home\": 1,\n \"away\": 1}")
            #expect(equaliser?.value == Score(home: 1, away: 1))
            // The stream has ended: the client sleeps the stream's retry, 500 ms, before reconnecting.
            await waitUntilSleeping(clock, limit: endlessWait)
            #expect(registry.journal.totalCount == 1)
            await clock.advance(by: .milliseconds(499))
            #expect(registry.journal.totalCount == 1)
            await clock.advance(by: .milliseconds(1))
            let next = try await events.next()
            #expect(next?.id == "3")
            #expect(next?.value == Score(home: 2, away: 1))
        }
        let requests = registry.journal.entries.map(\.request)
        #expect(requests.count >= 2)
        #expect(requests.first?.headerFields[.accept] == "text/event-stream")
        #expect(requests.first?.headerFields[HTTPField.Name("Last-Event-ID")!] == nil)
        #expect(requests.dropFirst().first?.headerFields[HTTPField.Name("Last-Event-ID")!] == "2")
    }

    /// An answer that is no event stream fails the sequence with the unacceptable status, and an
    /// event whose data does not decode with a decoding failure; neither reconnects.
    @Test(arguments: ServingMode.allCases)
    func whatIsNoEventStreamFailsWithoutReconnecting(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"home": 1}"#), for: .get("/json"))
        try registry.register(
            StubResponse(headerFields: [.contentType: "text/event-stream"], text: "data: not json\n\n"),
            for: .get("/bad"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let notAStream = await #expect(throws: APIError.self) {
                for try await _ in client.events(for: Resource<Score>.get("/json")) {}
            }
            guard case .unacceptableStatus(let failure) = notAStream else {
                Issue.record("expected an unacceptable status, got \(String(describing: notAStream))"); return
            }
            #expect(failure.status == .ok)
            #expect(String(decoding: failure.body, as: UTF8.self) == #"{"home": 1}"#)
            let undecodable = await #expect(throws: APIError.self) {
                for try await _ in client.events(for: Resource<Score>.get("/bad")) {}
            }
            guard case .decoding = undecodable else {
                Issue.record("expected a decoding failure, got \(String(describing: undecodable))"); return
            }
        }
        #expect(registry.journal.totalCount == 2)
    }

    /// Breaking out of the loop closes the stream: the client never reconnects, however long the
    /// test clock runs on.
    @Test(arguments: ServingMode.allCases)
    func breakingOutOfTheLoopStopsReconnecting(_ mode: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            StubResponse(headerFields: [.contentType: "text/event-stream"], text: "data: first\n\n"), for: .get("/feed")
        )
        try await withStubbedClient(mode, registry: registry, configuration: .init(clock: clock)) { client, _ in
            for try await event in client.events(for: Resource<String>.get("/feed")) {
                #expect(event.value == "first")
                break
            }
            // A reader left running would sleep its 3 s on the clock, then reconnect.
            for _ in 0..<100 {
                await clock.advance(by: .seconds(60))
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        #expect(registry.journal.totalCount == 1)
    }
}
