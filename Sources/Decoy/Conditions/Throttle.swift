/// How fast a response body arrives: all at once, or dribbled in pieces over time, as over a slow
/// network.
///
/// The head is sent at once (after the stub's ``Delay``); the body follows piece by piece, each
/// piece waited for on the engine's clock. An empty body, and the answer to `HEAD`, is not throttled.
public enum Throttle: Sendable, Hashable {
    /// The body at once.
    case none
    /// The body in `count` pieces of nearly equal size, the first after `duration / count` and the
    /// last at `duration`: WireMock's `chunkedDribbleDelay`. A body shorter than `count` bytes
    /// comes a byte at a time.
    case chunks(count: Int, over: Duration)
    /// The body at this rate, in pieces of a tenth of a second's worth of bytes, each sent once the
    /// rate allows all of it.
    case bytesPerSecond(Int)

    /// The pieces a body of `size` bytes arrives in, in order; empty when it arrives at once.
    package func pieces(forBodyOf size: Int) -> [BodyPiece] {
        guard size > 0 else { return [] }
        let ends: [Int]
        let due: (Int) -> Duration
        switch self {
        case .none:
            return []
        case .chunks(let count, let duration):
            let pieces = min(max(1, count), size)
            ends = (1...pieces).map { size * $0 / pieces }
            due = { duration * $0 / pieces }
        case .bytesPerSecond(let rate):
            let rate = max(1, rate)
            let pieceSize = max(1, rate / 10)
            ends = Array(stride(from: pieceSize, to: size, by: pieceSize)) + [size]
            due = { .seconds(1) * ends[$0 - 1] / rate }
        }
        return ends.indices.map { index in
            BodyPiece(end: ends[index], wait: due(index + 1) - (index == 0 ? .zero : due(index)))
        }
    }
}

/// One piece of a throttled body: where it ends in the body, and the wait before it is sent,
/// counted from the piece before (or from the head, for the first).
package struct BodyPiece: Sendable, Hashable {
    /// The offset just past its last byte.
    package let end: Int
    /// How long to wait before sending it.
    package let wait: Duration
}
