import Decoy
import Foundation

/// Makes a response body from its schema when the document gives no example, as Prism's static
/// mode does, and checks what it makes against the schema: a schema's own example, default,
/// constant or first allowed value where that passes, and otherwise a value of its type that
/// keeps its bounds, lengths, pattern and format, with every property of an object.
struct SchemaExample {
    let validator: SchemaValidator
    /// What each schema made, by nesting and pointer: the operations of a document share most of
    /// their schemas, and a value is made once for all of them.
    private let made = Made()

    private final class Made {
        var values: [String: JSONValue?] = [:]
    }

    private var document: JSONValue { validator.document }

    /// Past this nesting, objects get only their required properties and arrays no items where
    /// they may be empty, so that a schema that refers to itself gives a finite value.
    private static let optionalDepth = 6
    /// Past this nesting, nothing more is made: a cycle through required properties.
    private static let depthLimit = 24

    func value(forSchemaAt pointer: String) -> JSONValue? {
        value(forSchemaAt: pointer, depth: 0)
    }

    private func passes(_ value: JSONValue, _ pointer: String) -> Bool {
        validator.violations(of: value, schemaAt: pointer).isEmpty
    }

    private func value(forSchemaAt pointer: String, depth: Int) -> JSONValue? {
        let key = "\(depth) \(pointer)"
        if let value = made.values[key] { return value }
        let value = make(forSchemaAt: pointer, depth: depth)
        made.values[key] = .some(value)
        return value
    }

    private func make(forSchemaAt pointer: String, depth: Int) -> JSONValue? {
        guard depth < Self.depthLimit, let schema = document.at(pointer) else { return nil }
        guard case .object(let keywords) = schema else { return schema == .bool(true) ? .object([:]) : nil }
        if case .string(let reference)? = keywords["$ref"] {
            let referred = value(forSchemaAt: reference, depth: depth + 1)
            // 3.0 ignores a reference's siblings; 3.1 adds them, which the check below sees.
            if let referred,
                keywords.keys.allSatisfy({ !SchemaValidator.checked.contains($0) || $0 == "$ref" })
                    || passes(referred, pointer)
            {
                return referred
            }
        }
        var candidates: [JSONValue] = []
        if let example = keywords["example"] { candidates.append(example) }
        if case .array(let examples)? = keywords["examples"] { candidates += examples }
        if let value = keywords["const"] ?? keywords["default"] { candidates.append(value) }
        if case .array(let allowed)? = keywords["enum"] { candidates += allowed }
        if let passing = candidates.first(where: { passes($0, pointer) }) { return passing }
        if case .array(let parts)? = keywords["allOf"] {
            // The parts of an allOf are most often objects that together make one.
            var merged = ownValue(keywords, pointer, depth: depth)
            for index in parts.indices {
                // A part such as `{nullable: true}` says nothing of the value's type or members.
                guard case .object(let part)? = document.at("\(pointer)/allOf/\(index)"),
                    part.keys.contains(where: Self.shaping.contains),
                    let part = value(forSchemaAt: "\(pointer)/allOf/\(index)", depth: depth + 1)
                else { continue }
                merged = merged.map { Self.merge($0, part) } ?? part
            }
            return merged
        }
        for keyword in ["oneOf", "anyOf"] {
            guard case .array(let choices)? = keywords[keyword], !choices.isEmpty else { continue }
            let own = ownValue(keywords, pointer, depth: depth)
            var first: JSONValue?
            for index in choices.indices {
                guard let choice = value(forSchemaAt: "\(pointer)/\(keyword)/\(index)", depth: depth + 1) else {
                    continue
                }
                let value = own.map { Self.merge($0, choice) } ?? choice
                if passes(value, pointer) { return value }
                first = first ?? value
            }
            return first
        }
        return ownValue(keywords, pointer, depth: depth) ?? candidates.first
    }

    /// The keywords that give a value its type or members.
    private static let shaping: Set<String> = [
        "$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "const", "allOf", "anyOf",
        "oneOf", "pattern", "format", "minimum", "maximum", "minLength", "maxLength", "example", "default",
    ]

    /// `b`'s members added to `a`'s where both are objects; otherwise `b`, the more particular.
    private static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var members) = a, case .object(let more) = b else { return b }
        members.merge(more) { first, _ in first }
        return .object(members)
    }

    /// A value of the schema's own type, from its own keywords.
    private func ownValue(_ keywords: [String: JSONValue], _ pointer: String, depth: Int) -> JSONValue? {
        let type: String? =
            switch keywords["type"] {
            case .string(let type)?: type
            case .array(let types)?:
                types.lazy.compactMap { if case .string(let type) = $0, type != "null" { type } else { nil } }.first
                    ?? "null"
            default: Self.impliedType(keywords)
            }
        switch type {
        case "object":
            var members: [String: JSONValue] = [:]
            let required: Set<String> =
                if case .array(let names)? = keywords["required"] {
                    Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
                } else { [] }
            if case .object(let properties)? = keywords["properties"] {
                for name in properties.keys
                where required.contains(name)
                    || (depth < Self.optionalDepth && !isWriteOnly("\(pointer)/properties/\(name.pointerEscaped)"))
                {
                    members[name] = value(forSchemaAt: "\(pointer)/properties/\(name.pointerEscaped)", depth: depth + 1)
                }
            }
            return .object(members)
        case "array":
            let minimum = Self.number(keywords["minItems"]).map { Int($0) } ?? 0
            guard depth < Self.optionalDepth || minimum > 0,
                let item = value(forSchemaAt: "\(pointer)/items", depth: depth + 1)
            else { return .array([]) }
            return .array(Array(repeating: item, count: max(minimum, 1)))
        case "integer", "number": return .number(Self.number(keywords, integer: type == "integer"))
        case "boolean": return .bool(true)
        case "null": return .null
        case "string": return .string(string(keywords, pointer))
        // A schema that constrains no type allows any value.
        default: return .object([:])
        }
    }

    /// The type a schema without `type` means by its other keywords; `nil` when it allows anything.
    private static func impliedType(_ keywords: [String: JSONValue]) -> String? {
        if keywords["properties"] != nil || keywords["required"] != nil || keywords["additionalProperties"] != nil {
            return "object"
        }
        if keywords["items"] != nil { return "array" }
        if keywords["minimum"] != nil || keywords["maximum"] != nil { return "number" }
        if ["pattern", "minLength", "maxLength", "format"].contains(where: { keywords[$0] != nil }) { return "string" }
        return nil
    }

    private func isWriteOnly(_ pointer: String) -> Bool {
        document.at(pointer)?["writeOnly"] == .bool(true)
    }

    private static func number(_ value: JSONValue?) -> Double? {
        if case .number(let number)? = value { number } else { nil }
    }

    /// A number within the schema's bounds, exclusive ones of 3.0 (a flag) and 3.1 (a number),
    /// and a multiple of `multipleOf`.
    private static func number(_ keywords: [String: JSONValue], integer: Bool) -> Double {
        let step = number(keywords["multipleOf"]) ?? (integer ? 1 : 0)
        var lower = number(keywords["minimum"])
        var upper = number(keywords["maximum"])
        var lowerExclusive = keywords["exclusiveMinimum"] == .bool(true)
        var upperExclusive = keywords["exclusiveMaximum"] == .bool(true)
        if let bound = number(keywords["exclusiveMinimum"]), bound >= (lower ?? -.infinity) {
            lower = bound
            lowerExclusive = true
        }
        if let bound = number(keywords["exclusiveMaximum"]), bound <= (upper ?? .infinity) {
            upper = bound
            upperExclusive = true
        }
        func fits(_ value: Double) -> Bool {
            if let lower, lowerExclusive ? value <= lower : value < lower { return false }
            if let upper, upperExclusive ? value >= upper : value > upper { return false }
            return true
        }
        func aligned(_ value: Double, up: Bool) -> Double {
            guard step > 0 else { return value }
            return (up ? (value / step).rounded(.up) : (value / step).rounded(.down)) * step
        }
        var candidates: [Double] = [aligned(0, up: true)]
        if let lower {
            candidates.append(aligned(lower, up: true))
            candidates.append(aligned(lower + max(step, integer ? 1 : 0.5), up: true))
        }
        if let upper {
            candidates.append(aligned(upper, up: false))
            candidates.append(aligned(upper - max(step, integer ? 1 : 0.5), up: false))
        }
        if let lower, let upper { candidates.append(aligned((lower + upper) / 2, up: true)) }
        return candidates.first(where: fits) ?? candidates[0]
    }

    /// A string that keeps the schema's format, pattern and lengths.
    private func string(_ keywords: [String: JSONValue], _ pointer: String) -> String {
        let minimum = Self.number(keywords["minLength"]).map { Int($0) } ?? 0
        let maximum = Self.number(keywords["maxLength"]).map { Int($0) }
        var candidates: [String] = []
        if case .string(let pattern)? = keywords["pattern"], let sample = PatternSample(pattern) {
            // More repetitions of each quantified part, until the length is within bounds.
            for extra in [0, 1, 2, 4, 8, 16, 32, 64] { candidates.append(sample.string(extra: extra)) }
        }
        let format: String? = if case .string(let format)? = keywords["format"] { format } else { nil }
        let base = format.flatMap { Self.strings[$0] } ?? "string"
        candidates.append(base)
        var fitted = base
        if fitted.count < minimum { fitted += String(repeating: "x", count: minimum - fitted.count) }
        if let maximum, fitted.count > maximum { fitted = String(fitted.prefix(maximum)) }
        candidates.append(fitted)
        return candidates.first { passes(.string($0), pointer) } ?? fitted
    }

    /// A string of each format the checks know, which they pass, and of the common ones they do not check.
    private static let strings = [
        "date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "time": "00:00:00Z",
        "uuid": "00000000-0000-4000-8000-000000000000", "email": "user@example.com", "byte": "",
        "uri": "https://example.com", "url": "https://example.com", "uri-reference": "/example",
        "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    ]
}
