import Decoy

/// Makes a response body from its schema when the document gives no example, as Prism's static
/// mode does: a schema's own example, default, constant or first allowed value where it has one,
/// and otherwise a value of its type with every property of an object.
struct SchemaExample {
    let document: JSONValue

    /// Nesting past this is a schema that refers to itself; the value stops growing there.
    private static let depthLimit = 16

    func value(forSchemaAt pointer: String, depth: Int = 0) -> JSONValue? {
        guard depth < Self.depthLimit, let schema = document.at(pointer) else { return nil }
        guard case .object(let keywords) = schema else { return nil }
        if case .string(let reference)? = keywords["$ref"] { return value(forSchemaAt: reference, depth: depth + 1) }
        if let example = keywords["example"] { return example }
        if case .array(let examples)? = keywords["examples"], let first = examples.first { return first }
        if let value = keywords["default"] ?? keywords["const"] { return value }
        if case .array(let allowed)? = keywords["enum"], let first = allowed.first { return first }
        if case .array(let parts)? = keywords["allOf"] {
            // The parts of an allOf are most often objects that together make one.
            var members: [String: JSONValue] = [:]
            for index in parts.indices {
                guard case .object(let more)? = value(forSchemaAt: "\(pointer)/allOf/\(index)", depth: depth + 1) else {
                    continue
                }
                members.merge(more) { first, _ in first }
            }
            return .object(members)
        }
        for keyword in ["oneOf", "anyOf"] {
            if case .array(let choices)? = keywords[keyword], !choices.isEmpty {
                return value(forSchemaAt: "\(pointer)/\(keyword)/0", depth: depth + 1)
            }
        }
        let type: String? =
            switch keywords["type"] {
            case .string(let type)?: type
            case .array(let types)?:
                types.lazy.compactMap { if case .string(let type) = $0, type != "null" { type } else { nil } }.first
            default: keywords["properties"] != nil ? "object" : nil
            }
        switch type {
        case "object":
            guard case .object(let properties)? = keywords["properties"] else { return .object([:]) }
            var members: [String: JSONValue] = [:]
            for name in properties.keys where properties[name]?["writeOnly"] != .bool(true) {
                members[name] = value(forSchemaAt: "\(pointer)/properties/\(name.pointerEscaped)", depth: depth + 1)
            }
            return .object(members)
        case "array":
            let item = value(forSchemaAt: "\(pointer)/items", depth: depth + 1)
            let count = if case .number(let minimum)? = keywords["minItems"] { max(Int(minimum), 1) } else { 1 }
            return .array(item.map { Array(repeating: $0, count: count) } ?? [])
        case "integer", "number":
            if case .number(let minimum)? = keywords["minimum"] { return .number(minimum) }
            if case .number(let maximum)? = keywords["maximum"], maximum < 0 { return .number(maximum) }
            return .number(0)
        case "boolean": return .bool(true)
        case "null": return .null
        case "string":
            let format: String? = if case .string(let format)? = keywords["format"] { format } else { nil }
            return .string(Self.strings[format ?? ""] ?? "string")
        default: return nil
        }
    }

    /// A string of each format the checks know, which they pass.
    private static let strings = [
        "date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "uuid": "00000000-0000-4000-8000-000000000000",
        "email": "user@example.com", "byte": "", "uri": "https://example.com",
    ]
}
