import Decoy
import Yams

/// JSON text for a node of a stub file, for `jsonBody` and inline `equalToJson` documents.
///
/// Members keep the order they are written in, so a body reads back the way its author wrote it.
enum JSONText {
    static func of(_ node: Node) -> String {
        var text = ""
        append(node, to: &text)
        return text
    }

    /// The members of an object node, without braces, leaving out `excluded` names.
    static func members(of node: Node, excluding excluded: Set<String>) -> String {
        var text = ""
        appendMembers(of: node, excluding: excluded, to: &text)
        return text
    }

    /// Appends `node` as JSON: a whole stub's mapping is made at every load, so into one buffer.
    private static func append(_ node: Node, to text: inout String) {
        switch node {
        case .mapping:
            text += "{"
            appendMembers(of: node, excluding: [], to: &text)
            text += "}"
        case .sequence(let sequence):
            text += "["
            for (index, element) in sequence.enumerated() {
                if index > 0 { text += "," }
                append(element, to: &text)
            }
            text += "]"
        case .scalar(let scalar):
            text += scalar.style == .plain ? plain(scalar.string) : scalar.string.jsonQuoted
        case .alias:
            text += "null"
        }
    }

    private static func appendMembers(of node: Node, excluding excluded: Set<String>, to text: inout String) {
        guard case .mapping(let mapping) = node else { return }
        var first = true
        for (key, value) in mapping {
            let name = key.string ?? ""
            if excluded.contains(name) { continue }
            if !first { text += "," }
            first = false
            text += name.jsonQuoted
            text += ":"
            append(value, to: &text)
        }
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
