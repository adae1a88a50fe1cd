import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Logging

/// The server's request log, kept off libmicrohttpd's threads.
///
/// A server thread only appends what happened, without making any text or waking anyone; a
/// thread of the log's own takes what piled up every few milliseconds, puts each into words and
/// hands it to the logger. So neither formatting nor writing ever holds a connection, however
/// slow the logger's output. ``close()`` hands over everything appended before it, so a stopped
/// server has logged all it answered.
final class RequestLog: Sendable {
    /// One answered request, as the server saw it.
    struct Record: Sendable {
        let method: HTTPRequest.Method
        let target: String
        let status: Int
        let fault: Fault?
        let answeredBy: Source
        let elapsed: Duration
    }

    /// What answered a request.
    enum Source: Sendable {
        case route(Route)
        /// No stub: the 404's body says why the closest routes missed.
        case unmatched(body: Data)
        case adminAPI
    }

    /// How long lines wait to be handed over at most. Waking the log's thread for each request
    /// would cost the server's threads a system call per request.
    static let interval = DispatchTimeInterval.milliseconds(20)

    private struct Pending {
        var records: [Record] = []
        var isClosed = false
    }

    private let logger: Logger
    private let pending = Mutex(Pending())
    /// Only the flushing thread touches it; kept between batches so that steady traffic
    /// allocates no new storage.
    private let spare = Mutex<[Record]>([])
    private let flusher = PeriodicFlush(every: interval)

    init(logger: Logger) {
        self.logger = logger
        flusher.start { [weak self] in self?.writePending() }
    }

    /// Queues a line; called on the server's threads, so it only stores the record.
    func append(_ record: Record) {
        pending.withLock { pending in
            if !pending.isClosed { pending.records.append(record) }
        }
    }

    /// Hands every queued line to the logger, then stops; later appends are dropped.
    func close() {
        pending.withLock { $0.isClosed = true }
        flusher.close()
    }

    private func writePending() {
        spare.withLock { batch in
            pending.withLock { swap(&batch, &$0.records) }
            for record in batch { write(record) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// `METHOD target → outcome (what answered) time`, and the unmatched 404's body at `debug`.
    private func write(_ record: Record) {
        // Appended piece by piece into room made once: an interpolation of this many pieces
        // costs more than the rest of the line's way to the file.
        var line = ""
        line.reserveCapacity(record.target.utf8.count + 96)
        line += record.method.rawValue
        line += " "
        line += record.target
        line += " → "
        if let fault = record.fault {
            line += "fault \(fault)"
        } else {
            line += String(record.status)
        }
        switch record.answeredBy {
        case .route(let route):
            line += " ("
            line += route.description
            line += ") "
        case .unmatched: line += " (unmatched) "
        case .adminAPI: line += " (admin API) "
        }
        line += Self.milliseconds(record.elapsed)
        line += " ms"
        // Named rather than left to swift-log, which would work it out of the file's path per line.
        logger.info("\(line)", source: Self.source)
        if case .unmatched(let body) = record.answeredBy {
            logger.debug("\(String(decoding: body, as: UTF8.self))", source: Self.source)
        }
    }

    /// The module, as swift-log names a line's source by default.
    private static let source = "DecoyServer"

    /// `elapsed` in milliseconds with one decimal, as `%.1f` writes it, without Foundation's formatter.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let tenths = Int((Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
