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
        /// From the head's arrival to the answer.
        let nanoseconds: Int64
        /// How a proxied response differs from what it was checked against, a warning line after the request's.
        var drift: [ResponseDrift] = []
    }

    /// What answered a request.
    enum Source: Sendable {
        case route(Route)
        /// No stub: the 404's body says why the closest routes missed.
        case unmatched(body: Data)
        case adminAPI
        /// The `101` that hands the connection to a WebSocket.
        case webSocket
        /// Not a request: the WebSocket the request opened closed, and how; the record's time is how
        /// long it was open.
        case channelClosed(ChannelClose)
    }

    /// How long lines wait to be handed over at most. Waking the log's thread for each request
    /// would cost the server's threads a system call per request.
    static let interval = DispatchTimeInterval.milliseconds(20)

    private struct Pending {
        var records: [Record] = []
        var isClosed = false
    }

    private let pending = Mutex(Pending())
    /// Only the flushing thread touches it; kept between batches so that steady traffic
    /// allocates no new storage.
    private let spare = Mutex<[Record]>([])
    private let flusher = PeriodicFlush(every: interval)

    init(logger: Logger) {
        // The thread holds what it reads, not the log, which it would otherwise keep alive.
        flusher.start { [pending, spare, logger] in Self.writePending(pending, spare: spare, to: logger) }
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

    private static func writePending(_ pending: Mutex<Pending>, spare: Mutex<[Record]>, to logger: Logger) {
        spare.withLock { batch in
            pending.withLock { swap(&batch, &$0.records) }
            write(batch, to: logger)
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// A line per record at `info`, and the unmatched 404's body at `debug`: straight into the
    /// output's buffer when the logger is `decoy serve`'s own, through swift-log otherwise.
    private static func write(_ batch: [Record], to logger: Logger) {
        guard !batch.isEmpty else { return }
        if let handler = logger.handler as? BatchingLogHandler {
            let colours = handler.output.colours
            handler.logLines(source: source) { line in
                for record in batch {
                    line(.info) { record.words(into: &$0, colours: colours) }
                    if !record.drift.isEmpty { line(.warning) { $0.append(utf8: record.driftWords) } }
                    if case .unmatched(let body) = record.answeredBy {
                        line(.debug) { $0.append(contentsOf: body) }
                    }
                }
            }
            handler.output.flush()
            return
        }
        var words: [UInt8] = []
        for record in batch {
            words.removeAll(keepingCapacity: true)
            record.words(into: &words, colours: false)
            // Named rather than left to swift-log, which would work it out of the file's path per line.
            logger.info("\(String(decoding: words, as: UTF8.self))", source: source)
            if !record.drift.isEmpty { logger.warning("\(record.driftWords)", source: source) }
            if case .unmatched(let body) = record.answeredBy {
                logger.debug("\(String(decoding: body, as: UTF8.self))", source: source)
            }
        }
    }

    /// The module, as swift-log names a line's source by default.
    private static let source = "DecoyServer"

    /// `nanoseconds` in milliseconds with one decimal, as `%.1f` writes it, without Foundation's formatter.
    static func appendMilliseconds(_ nanoseconds: Int64, to bytes: inout [UInt8]) {
        let tenths = Int((nanoseconds + 50_000) / 100_000)
        bytes.append(decimal: tenths / 10)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(tenths % 10))
    }
}

extension RequestLog.Record {
    /// `METHOD target → outcome (what answered) time`, put into `bytes` piece by piece: an
    /// interpolation of this many pieces costs more than the rest of the line's way to the file.
    /// With `colours`, the outcome is coloured by its class: green for 2xx, cyan for 3xx, yellow
    /// for 4xx, red for 5xx and faults.
    func words(into bytes: inout [UInt8], colours: Bool) {
        bytes.append(utf8: method.rawValue)
        bytes.append(UInt8(ascii: " "))
        bytes.append(utf8: target)
        bytes.append(utf8: " → ")
        if case .channelClosed(let close) = answeredBy {
            bytes.append(utf8: "WebSocket \(close.words), open ")
            RequestLog.appendMilliseconds(nanoseconds, to: &bytes)
            bytes.append(utf8: " ms")
            return
        }
        if colours { bytes.append(utf8: colour) }
        if let fault {
            bytes.append(utf8: "fault")
            if colours { bytes.append(utf8: LogOutput.reset) }
            bytes.append(utf8: " \(fault)")
        } else {
            bytes.append(decimal: status)
            if colours { bytes.append(utf8: LogOutput.reset) }
        }
        switch answeredBy {
        case .route(let route):
            bytes.append(utf8: " (")
            route.appendDescription(to: &bytes)
            bytes.append(utf8: ") ")
        case .unmatched: bytes.append(utf8: " (unmatched) ")
        case .adminAPI: bytes.append(utf8: " (admin API) ")
        case .webSocket: bytes.append(utf8: " (WebSocket) ")
        case .channelClosed: break
        }
        RequestLog.appendMilliseconds(nanoseconds, to: &bytes)
        bytes.append(utf8: " ms")
    }

    /// `GET /users/7 differs from getUser (GET /users/{id}): /response/jsonBody/id: expected
    /// integer, got "7" (users.yaml#/…); …`, a line for each checked response that differs, its
    /// problems told by what they were held against (a document's operation, a stub).
    var driftWords: String {
        var groups: [(against: String?, problems: [String])] = []
        for problem in drift {
            if let last = groups.indices.last, groups[last].against == problem.against {
                groups[last].problems.append(problem.description)
            } else {
                groups.append((problem.against, [problem.description]))
            }
        }
        return "\(method.rawValue) \(target) differs "
            + groups.map { group in
                (group.against.map { "from \($0): " } ?? "") + group.problems.joined(separator: "; ")
            }.joined(separator: "; and ")
    }

    private var colour: String {
        guard fault == nil else { return "\u{1B}[31m" }
        return switch status {
        case 100..<300: "\u{1B}[32m"
        case 300..<400: "\u{1B}[36m"
        case 400..<500: "\u{1B}[33m"
        default: "\u{1B}[31m"
        }
    }
}
