import Decoy
package import Logging

/// A swift-log handler that words lines exactly as `StreamLogHandler` does, and leaves the
/// writing to a ``LogOutput``, which writes them in batches.
///
/// The server's request log hands it a whole batch of lines at once (``logLines(source:_:)``),
/// worded straight into the output's buffer: at tens of thousands of requests a second, a
/// `Logger.Message` and a lock per line cost as much as the rest of the line's way to the file.
package struct BatchingLogHandler: LogHandler {
    package let label: String
    package let output: LogOutput
    package var logLevel = Logger.Level.info
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?

    package init(label: String, output: LogOutput) {
        self.label = label
        self.output = output
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        let pretty = prettyMetadata(event.metadata, error: event.error)
        let message = event.message.description
        output.append { lines in
            lines.line { line in
                writePrefix(event.level, pretty, event.source, into: &line)
                line.append(utf8: message)
            }
        }
    }

    // Pays: scripts/benchmarks server-cpu, decoy serve on /users/42: a swift-log call per line costs 7% more CPU.
    /// Writes a line for each message `body` hands to its `line` function, at that level and
    /// from `source`, as ``log(event:)`` would write it without metadata of its own; messages
    /// below ``logLevel`` are skipped. The output is held once for the whole batch.
    package func logLines(
        source: String, _ body: (_ line: (Logger.Level, (inout [UInt8]) -> Void) -> Void) -> Void
    ) {
        let pretty = prettyMetadata(nil, error: nil)
        // Every level's prefix, worded once for the batch into one block that each line copies from.
        var prefixes: [UInt8] = []
        let ranges = Logger.Level.allCases.map { level in
            let start = prefixes.count
            writePrefix(level, pretty, source, into: &prefixes)
            return (level: level, bytes: start..<prefixes.count)
        }
        prefixes.withUnsafeBufferPointer { prefixes in
            output.append { lines in
                body { level, message in
                    guard level >= logLevel, let prefix = ranges.first(where: { $0.level == level }) else { return }
                    lines.line(after: UnsafeBufferPointer(rebasing: prefixes[prefix.bytes]), message)
                }
            }
        }
    }

    /// `level label: metadata [source] `, as `StreamLogHandler` begins a line after its timestamp.
    private func writePrefix(_ level: Logger.Level, _ pretty: String, _ source: String, into line: inout [UInt8]) {
        line.append(utf8: level.rawValue)
        if !label.isEmpty {
            line.append(UInt8(ascii: " "))
            line.append(utf8: label)
        }
        line.append(UInt8(ascii: ":"))
        line.append(utf8: pretty)
        line.append(utf8: " [")
        line.append(utf8: source)
        line.append(utf8: "] ")
    }

    /// ` key=value key=value`, sorted by key, or nothing without metadata.
    private func prettyMetadata(_ explicit: Logger.Metadata?, error: (any Error)?) -> String {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let explicit { merged.merge(explicit) { $1 } }
        if let error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
    }
}
