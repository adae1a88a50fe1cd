package import Foundation

/// A parsed JSON document, compared and searched by JSON matchers.
///
/// Numbers are kept as `Double` so that `1` and `1.0` compare equal, as they do in JSON.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses `text`; `nil` when it is not JSON.
    init?(parsing text: String) {
        self.init(parsing: Data(text.utf8))
    }

    /// Parses `data`; `nil` when it is not JSON.
    package init?(parsing data: Data) {
        guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self = parsed
    }

    /// The value as a matcher compares it with text: strings bare, everything else as compact JSON.
    var text: String {
        switch self {
        case .string(let string): string
        default: json
        }
    }

    /// Compact JSON text; object keys sorted, so equal values print the same.
    package var json: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let value):
            value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value): value.jsonQuoted
        case .array(let values): "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }.map { $0.key.jsonQuoted + ":" + $0.value.json }.joined(
                    separator: ",") + "}"
        }
    }
}

extension JSONValue: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value) where value.rounded() == value && abs(value) < 1e15: try container.encode(Int64(value))
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}
