import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// A response whose body libmicrohttpd pulls from a content reader that hands out only the pieces
/// the ``Throttle`` has released.
///
/// When the next piece is not due yet, the reader suspends the connection and returns nothing; a
/// task sleeps on the engine's clock until the piece is due and resumes the connection, which
/// calls the reader again. So a slow body holds no server thread, and libmicrohttpd never polls.
final class DribbledResponse: @unchecked Sendable {
    private let body: Data
    private let pieces: [BodyPiece]
    private let exchange: Exchange
    private let daemon: Daemon
    private let clock: any Clock<Duration>
    // libmicrohttpd calls a connection's content reader on one thread at a time, and only the
    // reader touches these, so they need no lock.
    private var released = 0
    private var next = 0

    private init(
        body: Data, pieces: [BodyPiece], exchange: Exchange, daemon: Daemon, clock: any Clock<Duration>
    ) {
        self.body = body
        self.pieces = pieces
        self.exchange = exchange
        self.daemon = daemon
        self.clock = clock
    }

    /// Queues `head` on the exchange's connection, and `body` after it as `pieces` fall due.
    static func queue(
        _ head: HTTPResponse, body: Data, pieces: [BodyPiece], on exchange: Exchange, daemon: Daemon,
        clock: any Clock<Duration>
    ) -> MHD_Result {
        let reader = DribbledResponse(
            body: body, pieces: pieces, exchange: exchange, daemon: daemon, clock: clock)
        // libmicrohttpd holds this reference until it frees the response, which it says by calling
        // `release`; when no response is made, it is released here.
        let context = Unmanaged.passRetained(reader).toOpaque()
        guard let pointer = MHD_create_response_from_callback(UInt64(body.count), 16 * 1024, read, context, release)
        else {
            Unmanaged<DribbledResponse>.fromOpaque(context).release()
            return .NO
        }
        defer { MHD_destroy_response(pointer) }
        PreparedResponse.add(head.headerFields, to: pointer)
        return MHD_queue_response(exchange.connection, UInt32(head.status.code), pointer)
    }

    private func read(at position: Int, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        switch exchange.machine.readerCalled() {
        case .close:
            return Self.endWithError
        case .releasePiece:
            released = pieces[next].end
            next += 1
        case .sendReleased:
            break
        }
        if position < released {
            let count = min(capacity, released - position)
            body.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + position, byteCount: count)
            }
            return count
        }
        guard next < pieces.count else { return Self.endWithError }
        exchange.machine.pieceAwaited()
        let wait = pieces[next].wait
        daemon.suspend(exchange) { [clock] in
            do {
                try await clock.sleep(for: wait)
                return .pieceDue
            } catch {
                return .close
            }
        }
        return 0
    }

    /// `MHD_CONTENT_READER_END_WITH_ERROR`, a macro Swift does not import: close the connection.
    private static let endWithError = -2

    private static let read: MHD_ContentReaderCallback = { context, position, buffer, capacity in
        guard let context, let buffer else { return endWithError }
        return Unmanaged<DribbledResponse>.fromOpaque(context).takeUnretainedValue().read(
            at: Int(position), into: buffer, capacity: capacity)
    }

    private static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<DribbledResponse>.fromOpaque(context).release()
    }
}
