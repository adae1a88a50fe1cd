import HTTPTypes
import Testing

@testable import Decoy

/// A server tells the engine how much room a response's head has beside the request's; what does
/// not fit is answered with a `500`, and the journal records the `500`, as what was sent.
@Suite("Head room")
struct HeadRoomTests {
    @Test(arguments: [(2_000, 500), (500, 200)])
    func aHeadTooLargeForTheRoomIsAnsweredAndRecordedAs500(fieldLength: Int, status: Int) async throws {
        let registry = StubRegistry()
        let big = StubResponse(headerFields: [.init("X-Big")!: String(repeating: "a", count: fieldLength)], text: "big")
        try registry.register(big, for: .get("/big"))
        let room = HeadRoom(limit: 1_024, requestLength: 100)
        let delivery = try await registry.engine.prepare(StubRequest(method: .get, target: "/big"), headRoom: room)
            .value()
        #expect(delivery.response.status.code == status)
        #expect(registry.journal.entries.map(\.response.status.code) == [status])
        #expect(registry.journal.entries.first?.route != nil)
    }

    @Test func withoutARoomEveryHeadGoesOut() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.init("X-Big")!: String(repeating: "a", count: 100_000)]), for: .get("/big"))
        let response = try await registry.engine.answer(StubRequest(method: .get, target: "/big"))
        #expect(response.status == .ok)
    }
}
