import Decoy
import Foundation
import Yams

/// A document parsed into a ``JSONValue``, with the order of the members whose order answers
/// depend on: the paths, each response map, each `content` and each `examples`. A `JSONValue`
/// object is a dictionary, whose order changes with the hash seed; "the first 2xx" and "the first
/// example" must not.
struct OrderedDocument {
    let value: JSONValue
    /// The member names of each such object, by the JSON pointer of the object, in the document's order.
    let order: [String: [String]]

    /// The objects whose members keep their order: those under a member of one of these names.
    static let ordered: Set<String> = ["paths", "responses", "content", "examples"]

    /// The member names of the object at `pointer` in the document's order; sorted when the
    /// document's order was not kept there (an object reached through a percent-encoded reference).
    func keys(at pointer: String) -> [String] {
        if let keys = order[pointer] { return keys }
        if case .object(let members)? = value.at(pointer) { return members.keys.sorted() }
        return []
    }

    /// Why text could not be parsed: where, and what.
    struct SyntaxError: Error {
        let place: String?
        let reason: String
    }

    /// Parses JSON text.
    init(json text: String) throws(SyntaxError) {
        var parser = JSONParser(bytes: Array(text.utf8))
        do {
            value = try parser.document()
        } catch {
            throw SyntaxError(
                place: Self.place(ofOffset: parser.index, in: text), reason: "is not valid JSON: \(error.reason)")
        }
        order = parser.order
    }

    /// Parses YAML text.
    init(yaml text: String) throws(SyntaxError) {
        let node: Node?
        do {
            // Yams's default resolver runs a regular expression per scalar; ``scalar(_:)`` reads the few
            // forms OpenAPI documents write, at a fraction of the cost.
            node = try Yams.compose(yaml: text, Resolver.basic)
        } catch let error as YamlError {
            switch error {
            case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
                .composer(_, let problem, let mark, _):
                throw SyntaxError(
                    place: "line \(mark.line), column \(mark.column)", reason: "is not valid YAML: \(problem)")
            case .reader(_, let offset, let value, _):
                // Yams words this with the raw line, the refused character and all: no terminal's business.
                let hex = String(UInt32(bitPattern: value), radix: 16, uppercase: true)
                let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                let utf8Offset = offset.map {
                    text.utf8.distance(from: text.startIndex, to: text.index(text.startIndex, offsetBy: $0))
                }
                throw SyntaxError(
                    place: utf8Offset.map { Self.place(ofOffset: $0, in: text) },
                    reason: "is not valid YAML: the character U+\(code) is not allowed; inside a double-quoted string, "
                        + "escape it as \\u\(code)")
            default:
                throw SyntaxError(place: nil, reason: "is not valid YAML: \(error)")
            }
        } catch {
            throw SyntaxError(place: nil, reason: "is not valid YAML: \(error)")
        }
        var order: [String: [String]] = [:]
        value = node.map { Self.value(of: $0, at: "#", recording: &order) } ?? .null
        self.order = order
    }

    private static func value(of node: Node, at pointer: String, recording order: inout [String: [String]]) -> JSONValue
    {
        switch node {
        case .scalar(let scalar):
            return Self.scalar(scalar)
        case .sequence(let sequence):
            return .array(sequence.enumerated().map { value(of: $1, at: "\(pointer)/\($0)", recording: &order) })
        case .mapping(let mapping):
            let keep = Self.ordered.contains(String(pointer.split(separator: "/").last ?? ""))
            var members: [String: JSONValue] = [:]
            var keys: [String] = []
            for (key, member) in mapping {
                let name = key.scalar?.string ?? ""
                if name == "<<" {
                    // A YAML merge key: the merged mapping's members, where this one has none of its own.
                    if case .object(let merged) = value(of: member, at: pointer, recording: &order) {
                        members.merge(merged) { own, _ in own }
                    }
                    continue
                }
                guard members[name] == nil else { continue }
                members[name] = value(of: member, at: "\(pointer)/\(name.pointerEscaped)", recording: &order)
                if keep { keys.append(name) }
            }
            if keep { order[pointer] = keys }
            return .object(members)
        case .alias:
            return .null
        }
    }

    /// A plain scalar as YAML 1.1's core schema reads it, as Yams's default resolver does: null,
    /// a boolean, a number (one past Int's range, such as 9223372036854776000, too), or text; a
    /// quoted scalar is always text.
    private static func scalar(_ scalar: Node.Scalar) -> JSONValue {
        let text = scalar.string
        guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return .bool(true)
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        guard let first = text.utf8.first,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
                || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return .string(text) }
        let digits = text.contains("_") ? text.replacingOccurrences(of: "_", with: "") : text
        let unsigned = digits.trimmingPrefix(while: { $0 == "-" || $0 == "+" })
        if unsigned.hasPrefix("0x"), let value = Int(unsigned.dropFirst(2), radix: 16) {
            return .number(Double(digits.hasPrefix("-") ? -value : value))
        }
        // Only decimal digits, a point and an exponent: "3.0.1", "1e3" (a string to YAML 1.1) and
        // dates stay text.
        guard
            unsigned.allSatisfy({
                $0.isASCII && ($0.isNumber || $0 == "." || $0 == "e" || $0 == "E" || $0 == "-" || $0 == "+")
            }),
            !unsigned.contains(where: { $0 == "e" || $0 == "E" }) || unsigned.contains("."),
            let value = Double(digits)
        else { return .string(text) }
        return .number(value)
    }

    /// `line 3, column 7` for the byte at `offset`.
    private static func place(ofOffset offset: Int, in text: String) -> String {
        let before = text.utf8.prefix(offset)
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column =
            before.count
            - (before.lastIndex(of: UInt8(ascii: "\n")).map { before.distance(from: before.startIndex, to: $0) + 1 }
                ?? 0) + 1
        return "line \(line), column \(column)"
    }
}

/// A JSON parser that keeps the order of the members ``OrderedDocument`` asks for, in one pass
/// over the bytes: a 2 MB document in well under a second, where decoding through `Codable`
/// loses the order. Read as YAML, as stub files are, JSON loses its strictness (`{"a": }` passes)
/// and its UTF-16 surrogate escapes, which libyaml refuses and Twilio's document has.
private struct JSONParser {
    struct Failure: Error { let reason: String }

    let bytes: [UInt8]
    var index = 0
    var order: [String: [String]] = [:]
    /// The pointer of the value being parsed, as tokens.
    private var tokens: [String] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(Failure) -> JSONValue {
        let value = try parseValue()
        skipSpace()
        guard index == bytes.count else { throw Failure(reason: "unexpected text after the document") }
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else {
            throw Failure(reason: "expected \"\(Character(Unicode.Scalar(byte)))\"")
        }
        index += 1
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw Failure(reason: "unexpected end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                tokens.append(String(items.count))
                items.append(try parseValue())
                tokens.removeLast()
                skipSpace()
                guard index < bytes.count else { throw Failure(reason: "unexpected end of the text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(items)
                } else {
                    throw Failure(reason: "expected \",\" or \"]\"")
                }
            }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try parseNumber()
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        index += 1
        let keep = tokens.last.map(OrderedDocument.ordered.contains) ?? false
        var members: [String: JSONValue] = [:]
        var keys: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw Failure(reason: "expected a member name in quotes")
                }
                let key = try parseString()
                try expect(UInt8(ascii: ":"))
                tokens.append(key)
                let value = try parseValue()
                tokens.removeLast()
                // The first of a repeated name counts, as in YAML here.
                if members[key] == nil {
                    members[key] = value
                    if keep { keys.append(key) }
                }
                skipSpace()
                guard index < bytes.count else { throw Failure(reason: "unexpected end of the text") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    break
                } else {
                    throw Failure(reason: "expected \",\" or \"}\"")
                }
            }
        }
        if keep { order["#" + tokens.map { "/" + $0.pointerEscaped }.joined()] = keys }
        return .object(members)
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw Failure(reason: "unexpected character")
        }
        index += utf8.count
        return value
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
        guard index > start, let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            index = start
            throw Failure(reason: "unexpected character")
        }
        return .number(number)
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        let start = index
        // Most strings have no escape: one slice of the bytes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < bytes.count else { throw Failure(reason: "a string is not closed") }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: scalars, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                scalars.append(byte)
                continue
            }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try hex4()
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                scalars += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
            default: scalars.append(escaped)
            }
        }
        throw Failure(reason: "a string is not closed")
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard bytes.count - index >= 4,
            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { throw Failure(reason: "a \\u escape needs four hexadecimal digits") }
        index += 4
        return code
    }
}
