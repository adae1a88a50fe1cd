import Dispatch
import Foundation

/// Closes a connection answered before its request's body was read the way nginx's lingering
/// close does: the answer is followed by the end of the server's side (a FIN), and what the client
/// still sends is read and dropped, up to a bound of bytes and of time, before the socket is
/// closed. Closed at once with bytes unread, the socket would answer them with a reset, which can
/// reach the client before it has read the answer (a `413` for a body too large).
///
/// libmicrohttpd closes its descriptor of the socket as usual; the drain holds a duplicate, so the
/// socket itself stays open until the drain ends. No thread waits: a dispatch source reads what
/// arrives.
final class LingeringClose: @unchecked Sendable {
    /// How long the client has to finish sending, after the answer, as nginx's `lingering_timeout`.
    static let timeLimit = DispatchTimeInterval.seconds(5)

    /// Every drain's reads and its close, one at a time; `@unchecked Sendable` rests on it.
    private static let queue = DispatchQueue(label: "decoy.lingering-close")

    private let socket: Int32
    private let limit: Int
    private var dropped = 0
    private var source: (any DispatchSourceRead)?

    private init(socket: Int32, limit: Int) {
        (self.socket, self.limit) = (socket, limit)
    }

    /// Ends the server's side of `socket` and drops up to `limit` more bytes from it, or what
    /// comes within ``timeLimit``, whichever ends first, before it is closed.
    static func start(_ socket: Int32, droppingUpTo limit: Int) {
        guard socket >= 0 else { return }
        let copy = dup(socket)
        guard copy >= 0 else { return }
        shutdown(copy, Int32(SHUT_WR))
        _ = fcntl(copy, F_SETFL, fcntl(copy, F_GETFL) | O_NONBLOCK)
        let drain = LingeringClose(socket: copy, limit: limit)
        let source = DispatchSource.makeReadSource(fileDescriptor: copy, queue: queue)
        drain.source = source
        source.setEventHandler { drain.readAvailable() }
        // Retains the drain until the source is cancelled, which releases both.
        source.setCancelHandler {
            close(drain.socket)
            drain.source = nil
        }
        queue.asyncAfter(deadline: .now() + timeLimit) { drain.source?.cancel() }
        source.resume()
    }

    /// Drops what has arrived; ends the drain at the client's end, an error, or the limit.
    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                dropped += count
                if dropped < limit { continue }
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                return
            }
            source?.cancel()
            return
        }
    }
}
