import Decoy
import Foundation
import HTTPTypes
import Logging
import DecoyClient

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
        let outcome = record.fault.map { "fault \($0)" } ?? "\(record.status)"
        let source = switch record.answeredBy {
        case .route(let route): "(\(route))"
        case .unmatched: "(unmatched)"
        case .adminAPI: "(admin API)"
        }
        logger.info("\(record.method) \(record.target) → \(outcome) \(source) \(Self.milliseconds(record.elapsed)) ms")
        if case .unmatched(let body) = record.answeredBy {
            logger.debug("\(String(decoding: body, as: UTF8.self))")
        }
    }

    /// `elapsed` in milliseconds with one decimal, as `%.1f` writes it, without Foundation's formatter.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let tenths = Int((Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

