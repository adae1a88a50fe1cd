import DecoyClient
import Foundation

/// Where `decoy serve` writes its log: standard output or a file, in batches.
///
/// Lines collect in memory and a thread of their own writes them together every few
/// milliseconds, so that a busy server makes one `write` for hundreds of requests and no thread
/// that logs ever waits for the output. If the output stops taking lines (a pipe nobody reads),
/// at most ``bufferLimit`` bytes wait; lines past it are dropped and counted, and the count is
/// written once the output moves again. ``close()`` writes what is left.
package final class LogOutput: Sendable {
    /// Whether lines may carry colour: the output is a terminal, and `NO_COLOR` is not set.
    package let colours: Bool
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let state = Mutex(State())
    /// The buffer last written, emptied and handed back to take the next lines: a new one each
    /// time would grow anew from nothing, a reallocation, copy and fresh pages at each doubling.
    private let spare = Mutex<[UInt8]>([])
    private let flusher = PeriodicFlush(every: flushInterval)

    static let flushInterval = DispatchTimeInterval.milliseconds(50)
    package static let bufferLimit = 16 * 1024 * 1024

    private struct State {
        var bytes: [UInt8] = []
        var dropped = 0
        var isClosed = false
        var second = 0
        /// The second's timestamp as lines start with it, dimmed on a terminal.
        var stamp: [UInt8] = []
    }

    /// Standard output.
    package convenience init() {
        self.init(descriptor: STDOUT_FILENO, ownsDescriptor: false)
    }

    /// The file at `path`, appended to, and made if missing.
    package convenience init(path: String) throws(LogOutputError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw LogOutputError(path: path, reason: String(cString: strerror(errno))) }
        self.init(descriptor: descriptor, ownsDescriptor: true)
    }

    private init(descriptor: Int32, ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        colours = isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        flusher.start { [weak self] in self?.flush() }
    }

    /// Adds the lines `write` makes, holding the buffer once for all of them, each stamped with
    /// the time as swift-log's `StreamLogHandler` stamps its lines.
    package func append(_ write: (inout Lines) -> Void) {
        let now = time(nil)
        state.withLock { state in
            guard !state.isClosed else { return }
            if state.second != now || state.stamp.isEmpty {
                state.second = now
                let timestamp = Self.timestamp(now)
                state.stamp = Array((colours ? "\(Self.dim)\(timestamp)\(Self.reset)" : timestamp).utf8)
            }
            // The buffer is lent to the lines and taken back, so that no line is copied twice.
            var lines = Lines(stamp: state.stamp)
            swap(&lines.bytes, &state.bytes)
            write(&lines)
            swap(&lines.bytes, &state.bytes)
            state.dropped += lines.dropped
        }
    }

    /// Lines being added to the output's buffer, under its lock.
    package struct Lines {
        fileprivate var bytes: [UInt8] = []
        fileprivate var dropped = 0
        fileprivate let stamp: [UInt8]

        fileprivate init(stamp: [UInt8]) {
            self.stamp = stamp
        }

        /// Adds `timestamp prefix line\n`, with the line as `write` puts it straight into the
        /// buffer, so that no string is made of it; once ``LogOutput/bufferLimit`` bytes wait, the
        /// line is dropped and counted instead.
        package mutating func line(
            after prefix: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0),
            _ write: (inout [UInt8]) -> Void
        ) {
            guard bytes.count < LogOutput.bufferLimit else {
                dropped += 1
                return
            }
            bytes += stamp
            bytes.append(UInt8(ascii: " "))
            bytes += prefix
            write(&bytes)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes every line appended so far, then stops; lines appended later are dropped.
    package func close() {
        state.withLock { $0.isClosed = true }
        flusher.close()
        if ownsDescriptor { Foundation.close(descriptor) }
    }

    /// Writes what the lines left in the buffer. The flusher's thread calls it every interval;
    /// `spare` is held throughout, so batches reach the output in order whoever calls it.
    func flush() {
        spare.withLock { batch in
            let dropped = state.withLock { state in
                swap(&batch, &state.bytes)
                defer { state.dropped = 0 }
                return state.dropped
            }
            if dropped > 0 {
                batch += Array("decoy: \(dropped) log lines dropped, as the log's output did not keep up\n".utf8)
            }
            write(batch)
            // Kept for the next lines unless a stalled output made it huge.
            batch.removeAll(keepingCapacity: batch.capacity <= Self.sparedCapacity)
        }
    }

    /// The most room kept between flushes; a larger buffer, grown while the output stalled, is let go.
    private static let sparedCapacity = 8 * 1024 * 1024

    /// Writes `bytes` whole, unless the output fails.
    private func write(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
            }
            if result < 0, errno == EINTR { continue }
            // A closed pipe or a full disk: these lines are lost, the server goes on.
            guard result > 0 else { return }
            written += result
        }
    }

    /// `2026-01-31T12:00:00+0000`: local time, as `StreamLogHandler` stamps its lines.
    private static func timestamp(_ second: Int) -> String {
        var seconds = second
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static let dim = "\u{1B}[2m"
    package static let reset = "\u{1B}[0m"
}

/// The log file cannot be opened.
package struct LogOutputError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String { "cannot write the log to \(path): \(reason)" }
}
