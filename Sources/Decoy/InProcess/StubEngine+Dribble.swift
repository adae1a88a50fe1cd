import Foundation

extension StubEngine {
    /// Hands `body` over piece by piece as `throttle` paces it, each piece waited for on the
    /// engine's clock; an unthrottled body is handed over at once, an empty one not at all.
    func dribble(_ body: Data, _ throttle: Throttle, to receive: (Data) -> Void) async throws {
        var start = 0
        for piece in throttle.pieces(forBodyOf: body.count) {
            try await clock.sleep(for: piece.wait)
            receive(body[body.startIndex + start ..< body.startIndex + piece.end])
            start = piece.end
        }
        if start < body.count { receive(body) }
    }
}
