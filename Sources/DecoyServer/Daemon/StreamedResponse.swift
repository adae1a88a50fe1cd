import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// A response body the server sends as its producer hands it over, piece by piece, for as long as
/// the producer goes on: a paced stub body, an event stream, a live feed.
///
/// To stream, hand the server an `AsyncSequence` of `Data` (an `AsyncStream<Data>` fed by
/// `yield`, say): each piece goes out, and is flushed, as soon as the sequence yields it, with
/// no server thread held in between. The body ends when the sequence does (`nil`, or `finish()`
/// of a stream), and the connection is cut off when it throws. A client that goes away is noticed
/// at the next piece, when the sequence's iterator is let go, which ends an `AsyncStream`
/// (its `onTermination`); the server's stopping cancels the wait for a piece. A ``BrokenBody``
/// thrown breaks the connection its fault's way. A streamed reply
/// is the answer ``ExchangeStateMachine/Answer/stream(_:_:)`` of a task that worked out the
/// answer with the connection suspended, as the admin API's are.
struct StreamedBody: Sendable {
    /// Its size in bytes when known before the first piece, sent as `Content-Length`; `nil` sends
    /// the body chunked, open-ended.
    let length: Int?
    /// Starts the walk through the pieces; called once, when the response is queued.
    fileprivate let start: @Sendable () -> () async throws -> Data?

    /// The pieces `pieces` yields, in order; `length`, when given, is their size in all.
    init<Pieces: AsyncSequence & Sendable>(_ pieces: Pieces, length: Int? = nil) where Pieces.Element == Data {
        self.length = length
        start = {
            var iterator = pieces.makeAsyncIterator()
            return { try await iterator.next() }
        }
    }
}

/// libmicrohttpd's response for a ``StreamedBody``: a content reader that hands out the piece in
/// hand and, with none, suspends the connection while a task awaits the next one, which resumes it.
/// So a slow or unending body holds no server thread, and libmicrohttpd never polls.
final class StreamedResponse: @unchecked Sendable {
    private let exchange: Exchange
    private let daemon: Daemon
    /// Whether the body's size was announced, so that its producer's ending early is an error.
    private let isSized: Bool
    // libmicrohttpd calls a connection's content reader on one thread at a time, and the task
    // awaiting a piece runs only while the connection is suspended, so these need no lock: the
    // lock under which the task resumes the connection orders its writes before the reader's reads.
    private var next: () async throws -> Data?
    /// The piece being sent, and how much of it is out.
    private var piece = Data()
    private var sent = 0
    /// What the last wait brought: a piece, or the end (`nil`).
    private var arrived: Data?
    private var hasEnded = false
    /// The fault that cut the body off, to break the connection its way.
    private var failure: Fault?

    private init(_ body: StreamedBody, exchange: Exchange, daemon: Daemon) {
        next = body.start()
        isSized = body.length != nil
        self.exchange = exchange
        self.daemon = daemon
    }

    /// Queues `head` on the exchange's connection, and `body` after it as its pieces come.
    static func queue(_ head: HTTPResponse, body: StreamedBody, on exchange: Exchange, daemon: Daemon) -> MHD_Result {
        let reader = StreamedResponse(body, exchange: exchange, daemon: daemon)
        // libmicrohttpd holds this reference until it frees the response, which it says by calling
        // `release`; when no response is made, it is released here.
        let context = Unmanaged.passRetained(reader).toOpaque()
        let size = body.length.map(UInt64.init) ?? sizeUnknown
        guard let pointer = MHD_create_response_from_callback(size, 16 * 1024, read, context, release) else {
            Unmanaged<StreamedResponse>.fromOpaque(context).release()
            return .NO
        }
        defer { MHD_destroy_response(pointer) }
        PreparedResponse.add(head.headerFields, to: pointer)
        return MHD_queue_response(exchange.connection, UInt32(head.status.code), pointer)
    }

    private func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        switch exchange.machine.readerCalled() {
        case .close:
            if let failure { SocketFault.cutOff(by: failure, on: exchange.connection) }
            return Self.endWithError
        case .releasePiece:
            if let arrived {
                piece = arrived
                sent = 0
            } else {
                hasEnded = true
            }
            arrived = nil
        case .sendReleased:
            break
        }
        if sent < piece.count {
            let count = min(capacity, piece.count - sent)
            piece.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
            }
            sent += count
            return count
        }
        if hasEnded { return Self.endOfStream }
        exchange.machine.pieceAwaited()
        daemon.suspend(exchange) { [self] in
            do {
                arrived = try await next()
                // A sized body's reader is called no more once it is all out, so one that waits
                // and meets the end has a producer that fell short of the announced length: the
                // connection is closed, as for a failure, through the resumption that closes.
                return arrived == nil && isSized ? .close : .pieceDue
            } catch let broken as BrokenBody {
                failure = broken.fault
                return .close
            } catch {
                return .close
            }
        }
        return 0
    }

    /// `MHD_SIZE_UNKNOWN`, a macro Swift does not import: the body is sent chunked.
    private static let sizeUnknown = UInt64.max
    /// `MHD_CONTENT_READER_END_OF_STREAM`: the body is complete.
    private static let endOfStream = -1
    /// `MHD_CONTENT_READER_END_WITH_ERROR`: close the connection, the body cut off.
    private static let endWithError = -2

    private static let read: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return endWithError }
        return Unmanaged<StreamedResponse>.fromOpaque(context).takeUnretainedValue().read(
            into: buffer, capacity: capacity)
    }

    private static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<StreamedResponse>.fromOpaque(context).release()
    }
}
