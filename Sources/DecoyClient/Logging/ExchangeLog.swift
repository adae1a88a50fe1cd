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
        let head = "← \(response.status.code) \(request.method) \(redactedTarget(request)) (\(String(format: "%.1f", milliseconds)) ms)"
        return lines(head: head, fields: response.headerFields, body: body)
    }

    private func lines(head: String, fields: HTTPFields, body: Data?) -> String {
        var lines = [head]
        for field in fields {
            let hidden = redaction.headerFields.contains(field.name) && !unredacted.contains(field.name.canonicalName)
            lines.append("  \(field.name): \(hidden ? LogRedaction.mask : field.value)")
        }
        if let body, !body.isEmpty { lines.append(describe(body)) }
        return lines.joined(separator: "\n")
    }

    private func hides(_ name: String) -> Bool {
        let name = name.lowercased()
        return redaction.parameters.contains(name) && !unredacted.contains(name)
    }

    private func redactedTarget(_ request: HTTPRequest) -> String {
        let target = request.path ?? "/"
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...].split(separator: "&").map { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return hides(name.removingPercentEncoding ?? name) ? "\(name)=\(LogRedaction.mask)" : String(pair)
        }
        return target[..<mark] + "?" + query.joined(separator: "&")
    }

    private static let bodyLimit = 16 * 1024

    private func describe(_ body: Data) -> String {
        if let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
           let pretty = try? JSONSerialization.data(withJSONObject: redacted(json), options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed]) {
            return String(decoding: pretty.prefix(Self.bodyLimit), as: UTF8.self)
        }
        guard body.count <= Self.bodyLimit, let text = String(data: body, encoding: .utf8) else {
            return "<\(body.count) bytes>"
        }
        return text
    }

    private func redacted(_ json: Any) -> Any {
        switch json {
        case let object as [String: Any]:
            Dictionary(uniqueKeysWithValues: object.map { key, value in (key, hides(key) ? LogRedaction.mask : redacted(value)) })
        case let array as [Any]:
            array.map(redacted)
        default:
            json
        }
    }
}
