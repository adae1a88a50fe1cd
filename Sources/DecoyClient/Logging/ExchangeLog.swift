import Foundation
import HTTPTypes

/// Formats requests and responses for the debug log: header fields, pretty JSON bodies, and
/// secrets masked by a ``LogRedaction`` except the names a request leaves visible.
struct ExchangeLog: Sendable {
    let redaction: LogRedaction
    let unredacted: Set<String>

    init(redaction: LogRedaction, unredacted: Set<String>) {
        self.redaction = redaction
        self.unredacted = Set(unredacted.map { $0.lowercased() })
    }

    func request(_ request: HTTPRequest, body: Data?) -> String {
        lines(head: "→ \(request.method) \(redactedTarget(request))", fields: request.headerFields, body: body)
    }

    func response(_ response: HTTPResponse, body: Data, to request: HTTPRequest, after elapsed: Duration) -> String {
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        let head =
            """
            ← \(response.status.code) \(request.method) \(redactedTarget(request)) \
            (\(String(format: "%.1f", milliseconds)) ms)
            """
        return lines(head: head, fields: response.headerFields, body: body)
    }

    private func lines(head: String, fields: HTTPFields, body: Data?) -> String {
        var lines = [head]
        for field in fields {
            let hidden = redaction.hides(field: field.name, unredacted: unredacted)
            lines.append("  \(field.name): \(hidden ? LogRedaction.mask : field.value)")
        }
        if let body, !body.isEmpty { lines.append(describe(body)) }
        return lines.joined(separator: "\n")
    }

    private func redactedTarget(_ request: HTTPRequest) -> String {
        redaction.redacting(target: request.path ?? "/", unredacted: unredacted)
    }

    private static let bodyLimit = 16 * 1024

    private func describe(_ body: Data) -> String {
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let pretty = try? JSONSerialization.data(
                withJSONObject: redaction.redacting(json: json, unredacted: unredacted),
                options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed])
        {
            return String(decoding: pretty.prefix(Self.bodyLimit), as: UTF8.self)
        }
        guard body.count <= Self.bodyLimit, let text = String(data: body, encoding: .utf8) else {
            return "<\(body.count) bytes>"
        }
        return text
    }
}
