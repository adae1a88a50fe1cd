import Decoy
import Yams

/// JSON text for a node of a stub file, for `jsonBody` and inline `equalToJson` documents.
///
/// Members keep the order they are written in, so a body reads back the way its author wrote it.
enum JSONText {
    static func of(_ node: Node) -> String {
        switch node {
        case .mapping:
            "{" + members(of: node, excluding: []) + "}"
        case .sequence(let sequence):
            "[" + sequence.map(of).joined(separator: ",") + "]"
        case .scalar(let scalar):
            scalar.style == .plain ? plain(scalar.string) : scalar.string.jsonQuoted
        case .alias:
            "null"
        }
    }

    /// The members of an object node, without braces, leaving out `excluded` names.
    static func members(of node: Node, excluding excluded: Set<String>) -> String {
        guard case .mapping(let mapping) = node else { return "" }
        return mapping.filter { !excluded.contains($0.key.string ?? "") }
            .map { (key, value) in (key.string ?? "").jsonQuoted + ":" + of(value) }.joined(separator: ",")
    }

    /// An unquoted scalar: JSON literals as written; YAML's other spellings of null, flags and numbers translated.
    private static func plain(_ text: String) -> String {
        if isJSONNumber(text) { return text }
        if PlainScalar.isNull(text) { return "null" }
        if let flag = PlainScalar.flag(text) { return flag ? "true" : "false" }
        if let number = Double(text), number.isFinite { return JSONValue.number(number).json }
        return text.jsonQuoted
    }

    /// Whether `text` follows JSON's number grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    private static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leadingZero = bytes.first == UInt8(ascii: "0")
        let integer = digits()
        guard integer > 0, !leadingZero || integer == 1 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
