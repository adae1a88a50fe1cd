import Clocks
import Decoy
import DecoyClient
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Event streams in the engine")
struct EventStreamTests {
    @Test func eachFieldGoesOnTheWireAsTheFormatSays() throws {
        let stub = try EventStreamStub(events: [
            ServerEvent(id: "7", event: "delta", data: "line one\nline two", retry: .seconds(3), comment: "note"),
            ServerEvent(json: ["text": "Hi"]),
        ])
        let wire = String(decoding: stub.response.body, as: UTF8.self)
        #expect(
            wire
                == ": note\nid: 7\nevent: delta\nretry: 3000\ndata: line one\ndata: line two\n\n"
                + "data: {\"text\":\"Hi\"}\n\n")
        #expect(stub.response.headerFields[.contentType] == "text/event-stream")
        #expect(stub.response.headerFields[.cacheControl] == "no-cache")
    }

    @Test func theEventsRepeatThenTheStreamCloses() async throws {
        let registry = StubRegistry()
        try registry.register(
            EventStreamStub(events: [ServerEvent(data: "a"), ServerEvent(data: "b")], repeats: .times(3)),
            for: .get("/repeat"))
        let (_, body) = try await StubTransport(registry).send(HTTPRequest(method: .get, url: "/repeat"), body: nil)
        #expect(String(decoding: body, as: UTF8.self) == String(repeating: "data: a\n\ndata: b\n\n", count: 3))
    }

    /// Held open after its events until the reader goes: cancelling the reading task ends it.
    @Test func aStreamThatStaysOpenHoldsItsReaderUntilCancelled() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(EventStreamStub(events: [ServerEvent(data: "a")], then: .stayOpen), for: .get("/open"))
        let reading = Task {
            try await StubTransport(registry).send(HTTPRequest(method: .get, url: "/open"), body: nil)
        }
        await waitUntilSleeping(clock)
        await clock.advance(by: .seconds(3600))
        await waitUntilSleeping(clock)
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
    }

    @Test func aHostileStreamIsRefusedWithAReason() {
        #expect(throws: DecoyError.self) {
            try EventStreamStub(events: Array(repeating: ServerEvent(data: "x"), count: 1_000_000))
        }
        #expect(throws: DecoyError.self) {
            try EventStreamStub(events: [ServerEvent(data: String(repeating: "x", count: 100 << 20))])
        }
        #expect(throws: DecoyError.self) {
            try EventStreamStub(events: [ServerEvent(data: "x")], repeats: .forever)
        }
        #expect(throws: DecoyError.self) { try EventStreamStub(events: []) }
        do {
            _ = try EventStreamStub(events: Array(repeating: ServerEvent(data: "x"), count: 1_000_000))
        } catch {
            #expect(error.description == "an event stream has at most 100000 events, not 1000000")
        }
    }

    /// Events due at once go out as one piece, so zero delays cost no wait per event.
    @Test func eventsDueTogetherAreSentTogether() async throws {
        let registry = StubRegistry()
        try registry.register(
            EventStreamStub(events: Array(repeating: ServerEvent(data: "x"), count: 1_000), repeats: .times(100)),
            for: .get("/burst"))
        let (_, body) = try await StubTransport(registry).send(HTTPRequest(method: .get, url: "/burst"), body: nil)
        #expect(body.count == 100_000 * "data: x\n\n".utf8.count)
    }
}

extension HTTPRequest {
    fileprivate init(method: Method, url path: String) {
        self.init(method: method, scheme: "https", authority: "api.test", path: path)
    }
}
