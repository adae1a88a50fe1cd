import Foundation

/// A response body the server sends as its producer hands it over, piece by piece, for as long as
/// the producer goes on: a paced stub body, an event stream, a live feed.
///
/// To stream, hand the server an `AsyncSequence` of `Data` (an `AsyncStream<Data>` fed by
/// `yield`, say): each piece goes out, and is flushed, as soon as the sequence yields it, with
/// no server thread held in between. The body ends when the sequence does (`nil`, or `finish()`
/// of a stream), and the connection is cut off when it throws. A client that goes away is noticed
/// at the next piece, when the sequence's iterator is let go, which ends an `AsyncStream`
/// (its `onTermination`); the server's stopping cancels the wait for a piece. A ``BrokenBody``
/// thrown breaks the connection its fault's way. A streamed reply is ``Reply/stream(_:_:)``,
/// which a task resumes a suspended connection with, as the admin API's are.
///
/// Where the body is on its way out (the piece being sent, its end) is the exchange's machine's
/// (``ExchangeStateMachine/Stream``); this is only the producer. `@unchecked Sendable`: only the
/// task that awaits the next piece calls ``next()``, one at a time, while the connection is
/// suspended; the lock under which each such task resumes the connection orders its calls.
/// Compared by identity: one producer per body.
final class StreamedBody: @unchecked Sendable, Equatable {
    /// Its size in bytes when known before the first piece, sent as `Content-Length`; `nil` sends
    /// the body chunked, open-ended.
    let length: Int?
    private let nextPiece: () async throws -> Data?

    /// The pieces `pieces` yields, in order; `length`, when given, is their size in all.
    init<Pieces: AsyncSequence & Sendable>(_ pieces: Pieces, length: Int? = nil) where Pieces.Element == Data {
        self.length = length
        var iterator = pieces.makeAsyncIterator()
        nextPiece = { try await iterator.next() }
    }

    /// The producer's next piece, `nil` at its end.
    func next() async throws -> Data? {
        try await nextPiece()
    }

    static func == (lhs: StreamedBody, rhs: StreamedBody) -> Bool { lhs === rhs }
}
