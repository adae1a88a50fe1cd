import Logging

/// A swift-log handler that words lines exactly as `StreamLogHandler` does, and leaves the
/// writing to a ``LogOutput``, which writes them in batches.
///
/// On a terminal the timestamp is dimmed and a request line's outcome is coloured by its class:
/// green for 2xx, cyan for 3xx, yellow for 4xx, red for 5xx and faults.
struct BatchingLogHandler: LogHandler {
    let label: String
    let output: LogOutput
    var logLevel = Logger.Level.info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, output: LogOutput) {
        self.label = label
        self.output = output
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty =
            merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        let message = output.colours ? Self.colouringOutcome(of: event.message.description) : event.message.description
        let level = event.level.rawValue
        let source = event.source
        // `level label: metadata [source] message`, written piece by piece into the output's
        // buffer: one string made for the line and copied again costs as much as the rest.
        output.append { line in
            line.append(contentsOf: level.utf8)
            if !label.isEmpty {
                line.append(UInt8(ascii: " "))
                line.append(contentsOf: label.utf8)
            }
            line.append(UInt8(ascii: ":"))
            line.append(contentsOf: pretty.utf8)
            line.append(contentsOf: " [".utf8)
            line.append(contentsOf: source.utf8)
            line.append(contentsOf: "] ".utf8)
            line.append(contentsOf: message.utf8)
        }
    }

    /// `GET /x → 404 (unmatched) 0.1 ms` with `404` coloured; any other message unchanged.
    static func colouringOutcome(of message: String) -> String {
        guard let arrow = message.range(of: " → ") else { return message }
        let rest = message[arrow.upperBound...]
        let end = rest.firstIndex(of: " ") ?? rest.endIndex
        let colour =
            switch rest.first {
            case "2": "\u{1B}[32m"
            case "3": "\u{1B}[36m"
            case "4": "\u{1B}[33m"
            default: "\u{1B}[31m"
            }
        return "\(message[..<arrow.upperBound])\(colour)\(rest[..<end])\(LogOutput.reset)\(rest[end...])"
    }
}
