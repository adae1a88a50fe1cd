import Clocks
import Decoy
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import Testing

@Suite("Throttled bodies, on a test clock")
struct ThrottleTests {
    @Test(arguments: ServingMode.allCases)
    func theBodyIsCompleteOnlyOnceTheClockPassesItsLastPiece(_ serving: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        let body = String(repeating: "abcdefghij", count: 10)
        try registry.register(
            StubResponse(text: body).throttled(.chunks(count: 4, over: .seconds(2))), for: .get("/slow"))
        let answer = try await exchange(
            serving, registry, "/slow", advancing: clock, by: Array(repeating: .milliseconds(500), count: 4))
        #expect(answer.text == body)
    }

    @Test func chunksSplitTheBodyEvenlyOverTheDuration() {
        let pieces = Throttle.chunks(count: 3, over: .milliseconds(900)).pieces(forBodyOf: 10)
        #expect(pieces.map(\.end) == [3, 6, 10])
        #expect(pieces.map(\.wait) == Array(repeating: .milliseconds(300), count: 3))
        #expect(Throttle.chunks(count: 5, over: .seconds(1)).pieces(forBodyOf: 2).map(\.end) == [1, 2])
    }

    @Test func aRateSendsATenthOfASecondsWorthAtATime() {
        let pieces = Throttle.bytesPerSecond(1_000).pieces(forBodyOf: 250)
        #expect(pieces.map(\.end) == [100, 200, 250])
        #expect(pieces.map(\.wait) == [.milliseconds(100), .milliseconds(100), .milliseconds(50)])
    }

    @Test func nothingToPaceWithoutABodyOrAThrottle() {
        #expect(Throttle.bytesPerSecond(10).pieces(forBodyOf: 0).isEmpty)
        #expect(Throttle.none.pieces(forBodyOf: 100).isEmpty)
    }
}
