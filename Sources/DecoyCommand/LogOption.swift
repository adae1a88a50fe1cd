import ArgumentParser
import DecoyServer
import Logging

/// `--log`: how much `decoy serve` logs.
enum LogOption: String, CaseIterable, ExpressibleByArgument {
    /// Nothing per request.
    case none
    /// A line per answered request.
    case requests
    /// Also the unmatched 404's body, which says why the closest stubs missed.
    case verbose

    /// The server's logger, writing to `output`; `nil` for ``none``.
    func logger(to output: LogOutput) -> Logger? {
        guard self != .none else { return nil }
        var logger = Logger(label: "decoy") { label in BatchingLogHandler(label: label, output: output) }
        logger.logLevel = self == .verbose ? .debug : .info
        return logger
    }
}
