import Decoy
import Foundation
import HTTPTypes
import Logging
import Synchronization

/// The server's request log, kept off libmicrohttpd's threads.
///
/// A server thread only appends what happened, without making any text; a thread of the log's
/// own takes what piled up, a batch at a time, puts each into words and hands it to the logger.
/// So neither formatting nor writing ever holds a connection, however slow the logger's output.
/// ``close()`` hands over everything appended before it, so a stopped server has logged all it answered.
final class RequestLog: Sendable {
    /// One answered request, as the server saw it.
    struct Record: Sendable {
        let method: HTTPRequest.Method
        let target: String
        let response: StubResponse
        let answeredBy: Source
        let elapsed: Duration
    }

    /// What answered a request.
    enum Source: Sendable {
        case route(Route)
        case unmatched
        case adminAPI
    }

    private struct Pending {
        var records: [Record] = []
        var isClosed = false
    }

    private let logger: Logger
    private let pending = Mutex(Pending())
    private let wake = DispatchSemaphore(value: 0)
    private let drained = DispatchSemaphore(value: 0)

    init(logger: Logger) {
        self.logger = logger
        Thread { [self] in writeUntilClosed() }.start()
    }

    /// Queues a line; called on the server's threads, so it only stores the record.
    func append(_ record: Record) {
        let isFirst = pending.withLock { pending in
            guard !pending.isClosed else { return false }
            pending.records.append(record)
            return pending.records.count == 1
        }
        // The writer drains everything each time it wakes, so one signal per batch is enough.
        if isFirst { wake.signal() }
    }

    /// Hands every queued line to the logger, then ends the writer; later appends are dropped.
    func close() {
        let wasClosed = pending.withLock { pending in
            defer { pending.isClosed = true }
            return pending.isClosed
        }
        guard !wasClosed else { return }
        wake.signal()
        drained.wait()
    }

    private func writeUntilClosed() {
        var batch: [Record] = []
        while true {
            wake.wait()
            let isClosed = pending.withLock { pending in
                swap(&batch, &pending.records)
                return pending.isClosed
            }
            for record in batch { write(record) }
            // Kept for the next batch, so that steady traffic allocates no new storage.
            batch.removeAll(keepingCapacity: true)
            if isClosed {
                drained.signal()
                return
            }
        }
    }

    /// `METHOD target → outcome (what answered) time`, and the unmatched 404's body at `debug`.
    private func write(_ record: Record) {
        let outcome = record.response.fault.map { "fault \($0)" } ?? "\(record.response.status.code)"
        let source = switch record.answeredBy {
        case .route(let route): "(\(route))"
        case .unmatched: "(unmatched)"
        case .adminAPI: "(admin API)"
        }
        logger.info("\(record.method) \(record.target) → \(outcome) \(source) \(Self.milliseconds(record.elapsed)) ms")
        if case .unmatched = record.answeredBy {
            logger.debug("\(String(decoding: record.response.body, as: UTF8.self))")
        }
    }

    /// `elapsed` in milliseconds with one decimal, as `%.1f` writes it, without Foundation's formatter.
    static func milliseconds(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let tenths = Int((Double(seconds) * 10_000 + Double(attoseconds) / 1e14).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
