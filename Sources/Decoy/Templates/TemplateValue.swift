import Foundation

/// A value a template works with, written out the way WireMock's Handlebars-Java writes it.
enum TemplateValue: Sendable {
    case null
    case string(String)
    /// A whole number, or a number with a fraction written as short as it goes.
    case number(Double)
    /// A Java double, written as Java writes one (`3.0`, `1.0E-4`): what `math` gives for a
    /// fraction and JSON path aggregates give.
    case decimal(Double)
    /// A date with the offset from UTC it is written in: what `parseDate`, `date` and `now` give.
    case date(Date, secondsFromGMT: Int)
    case bool(Bool)
    case list([TemplateValue])
    /// A query, header or cookie value, which may repeat: written as its first value, as WireMock's
    /// `ListOrSingle` is, but indexed, counted and iterated as a list.
    case values([String])
    /// Members in order; header names are looked up without regard to case.
    case map([(key: String, value: TemplateValue)], caseInsensitive: Bool)
    /// `request.path`: written whole, indexed and iterated by segment.
    case path(String, segments: [String])
    /// What `jsonPath` selected.
    case json(JSONValue)

    /// The value as text, the way WireMock renders it.
    var text: String {
        switch self {
        case .null: ""
        case .string(let string): string
        case .number(let number): Self.text(number)
        case .decimal(let number): number.javaText
        case .date(let date, let secondsFromGMT): Self.iso8601(date, secondsFromGMT: secondsFromGMT)
        case .bool(let value): value ? "true" : "false"
        case .list(let elements): "[" + elements.map(\.text).joined(separator: ", ") + "]"
        case .values(let values): values.first ?? ""
        case .map(let members, _): "{" + members.map { "\($0.key)=\($0.value.text)" }.joined(separator: ", ") + "}"
        case .path(let path, _): path
        case .json(let json):
            switch json {
            case .null: ""
            case .string(let string): string
            case .number(let number): Self.text(number)
            case .bool(let value): value ? "true" : "false"
            // As WireMock's jsonPath helper writes them: an array compact, an object pretty-printed by Jackson.
            case .array: json.json
            case .object: Self.pretty(json, indent: "")
            }
        }
    }

    /// Whether `#if` takes the body: not null, false, zero, an empty text or an empty collection.
    var isTruthy: Bool {
        switch self {
        case .null: false
        case .string(let string): !string.isEmpty
        case .number(let number), .decimal(let number): number != 0
        case .date: true
        case .bool(let value): value
        case .list(let elements): !elements.isEmpty
        case .values(let values): !values.isEmpty
        case .map(let members, _): !members.isEmpty
        case .path: true
        case .json(let json): TemplateValue(json).isTruthy
        }
    }

    /// The elements `#each` walks and an index selects; `nil` for a single value.
    var elements: [TemplateValue]? {
        switch self {
        case .list(let elements): elements
        case .values(let values): values.map(TemplateValue.string)
        case .path(_, let segments): segments.map(TemplateValue.string)
        case .json(.array(let elements)): elements.map(TemplateValue.json)
        default: nil
        }
    }

    /// The members `#each` walks over, for a map.
    var members: [(key: String, value: TemplateValue)]? {
        switch self {
        case .map(let members, _): members
        case .json(.object(let members)): members.sorted { $0.key < $1.key }.map { ($0.key, .json($0.value)) }
        default: nil
        }
    }

    /// The value `name` selects: a member, or an element when `name` is an index.
    func member(_ name: String) -> TemplateValue {
        switch self {
        case .map(let members, let caseInsensitive):
            let found =
                caseInsensitive
                ? members.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }
                : members.first { $0.key == name }
            return found?.value ?? .null
        case .json(.object(let members)):
            return members[name].map(TemplateValue.json) ?? .null
        default:
            guard let index = Int(name), let elements, elements.indices.contains(index) else { return .null }
            return elements[index]
        }
    }

    /// A value from parsed JSON, its members sorted by name.
    init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .number(let number): self = .number(number)
        case .string(let string): self = .string(string)
        case .array, .object: self = .json(json)
        }
    }

    /// A value from parsed JSON as Handlebars sees a parsed map (`parseJson`): objects are maps,
    /// written `{a=1, b=[1, 2]}`, arrays are lists, members sorted by name.
    init(parsed json: JSONValue) {
        switch json {
        case .array(let elements): self = .list(elements.map(TemplateValue.init(parsed:)))
        case .object(let members):
            self = .map(
                members.sorted { $0.key < $1.key }.map { ($0.key, TemplateValue(parsed: $0.value)) },
                caseInsensitive: false)
        default: self.init(json)
        }
    }

    /// ISO 8601 to the second, as WireMock writes a date: `Z` for UTC, the offset elsewhere.
    static func iso8601(_ date: Date, secondsFromGMT: Int) -> String {
        format(date, secondsFromGMT == 0 ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm:ssxxx", secondsFromGMT)
    }

    /// `date` in a date format, at `secondsFromGMT` from UTC.
    static func format(_ date: Date, _ pattern: String, _ secondsFromGMT: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(secondsFromGMT: secondsFromGMT)
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// A number as Java writes a JSON number: whole numbers without a fraction.
    static func text(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    /// Jackson's default pretty printer: `"name" : value`, objects over lines, arrays on one.
    private static func pretty(_ json: JSONValue, indent: String) -> String {
        switch json {
        case .object(let members) where !members.isEmpty:
            let inner = indent + "  "
            let lines = members.sorted { $0.key < $1.key }.map {
                inner + $0.key.jsonQuoted + " : " + pretty($0.value, indent: inner)
            }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        case .object:
            return "{ }"
        case .array(let elements) where !elements.isEmpty:
            return "[ " + elements.map { pretty($0, indent: indent) }.joined(separator: ", ") + " ]"
        case .array:
            return "[ ]"
        case .number(let number):
            return text(number)
        default:
            return json.json
        }
    }

    /// The entities Handlebars-Java writes for HTML's special characters.
    private static let entities: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#x27;", "`": "&#x60;", "=": "&#x3D;",
    ]

    /// Whether `byte` is one of ``entities``' characters.
    static func isEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"),
            UInt8(ascii: "`"), UInt8(ascii: "="):
            true
        default: false
        }
    }

    /// `text` with HTML's special characters escaped, as Handlebars-Java escapes `{{value}}`.
    static func escaped(_ text: String) -> String {
        // Every special character is ASCII: most values have none, told by their bytes without
        // hashing a character each.
        // Pays: scripts/benchmarks instructions, "templated answer": 43.0k → 36.4k instructions.
        guard text.utf8.contains(where: isEscaped) else { return text }
        return text.reduce(into: "") { result, character in
            if let entity = entities[character] { result += entity } else { result.append(character) }
        }
    }
}
