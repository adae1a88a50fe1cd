import Decoy
import DecoyClient
import Foundation

/// Makes a response body from its schema when the document gives no example, as Prism's static
/// mode does, and checks what it makes against the schema: a schema's own example, default,
/// constant or first allowed value where that passes, and otherwise a value of its type that
/// keeps its bounds, lengths, pattern and format, with every property of an object; the parts of
/// an `allOf` and what a `$ref` leads to are read as one schema.
struct SchemaExample {
    let validator: SchemaValidator
    /// What each schema made, by nesting and pointer: the operations of a document share most of
    /// their schemas, and a value is made once for all of them. Behind a lock, as a validation
    /// proxy checks responses on many threads; never held while a value is made, which recurses.
    private let made = Mutex<[String: JSONValue?]>([:])

    private var document: JSONValue { validator.document }

    /// Past this nesting, objects get only their required properties and arrays no items where
    /// they may be empty, so that a schema that refers to itself gives a finite value.
    private static let optionalDepth = 6
    /// Past this nesting, nothing more is made: a cycle through required properties.
    private static let depthLimit = 24

    func value(forSchemaAt pointer: String) -> JSONValue? {
        value(forSchemasAt: [pointer], depth: 0)
    }

    private func passes(_ value: JSONValue, _ pointers: [String]) -> Bool {
        pointers.allSatisfy { validator.violations(of: value, schemaAt: $0).isEmpty }
    }

    /// Which optional properties an object made past ``optionalDepth`` has; its members have none.
    private enum Below {
        case requiredOnly
        /// Those an `enum` or `const` pins.
        case pinned
        case every
    }

    /// A value that passes every schema at `pointers`: one schema's, or those the parts of an
    /// allOf give one property.
    private func value(forSchemasAt pointers: [String], depth: Int, below: Below = .requiredOnly) -> JSONValue? {
        let key = "\(depth) \(below) \(pointers.joined(separator: "\u{0}"))"
        if let value = made.withLock({ $0[key] }) { return value }
        let value = make(forSchemasAt: pointers, depth: depth, below: below)
        made.withLock { $0[key] = .some(value) }
        return value
    }

    /// The schemas, their references and allOf parts are read as one schema: a value made part by
    /// part and merged would keep the first part's `"string"` where a later one narrows it to an
    /// enum, and lose what one part requires of another's properties.
    private func make(forSchemasAt pointers: [String], depth: Int, below: Below) -> JSONValue? {
        guard depth < Self.depthLimit, let parts = validator.parts(of: pointers) else { return nil }
        var candidates: [JSONValue] = []
        for keywords in parts.map(\.keywords) {
            if let example = keywords["example"] { candidates.append(example) }
            if case .array(let examples)? = keywords["examples"] { candidates += examples }
            if let value = keywords["const"] ?? keywords["default"] { candidates.append(value) }
            if case .array(let allowed)? = keywords["enum"] { candidates += allowed }
        }
        if let passing = candidates.first(where: { passes($0, pointers) }) { return passing }
        var value = ownValue(parts, pointers, depth: depth, below: below)
        for part in parts {
            for keyword in ["oneOf", "anyOf"] {
                guard case .array(let choices)? = part.keywords[keyword], !choices.isEmpty else { continue }
                let choiceDepth = depth + part.distance + 1
                var first: JSONValue?
                var chosen: JSONValue?
                // Deep down a choice gets its required properties alone, which may fit several
                // choices of a oneOf (PagerDuty's log entries, told apart by an optional `type`
                // that a few references down counts as deep). Then each is made again with the
                // optional properties an enum pins, which tell most such choices apart, and
                // last with all of them (its custom fields' `value`, told apart by type), which
                // first would bring along others that may miss oneOfs of their own.
                choosing: for extra in [Below.requiredOnly, .pinned, .every] {
                    for index in choices.indices {
                        guard
                            let choice = self.value(
                                forSchemasAt: ["\(part.pointer)/\(keyword)/\(index)"], depth: choiceDepth,
                                below: extra)
                        else { continue }
                        let merged = Self.merge(value, choice)
                        if passes(merged, [part.pointer]) {
                            chosen = merged
                            break choosing
                        }
                        first = first ?? merged
                    }
                }
                value = chosen ?? first ?? value
            }
        }
        return value
    }

    /// `b`'s members added to `a`'s where both are objects; otherwise `b`, the more particular.
    private static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var members) = a, case .object(let more) = b else { return b }
        members.merge(more) { first, _ in first }
        return .object(members)
    }

    /// The keywords of `parts` as one schema's: the tightest of each bound, and otherwise the first
    /// part's keyword.
    private static func merged(_ parts: [SchemaValidator.SchemaPart]) -> [String: JSONValue] {
        var keywords: [String: JSONValue] = [:]
        for part in parts {
            for (keyword, value) in part.keywords {
                guard let kept = keywords[keyword] else {
                    keywords[keyword] = value
                    continue
                }
                guard case .number(let old) = kept, case .number(let new) = value else { continue }
                if ["minimum", "minLength", "minItems", "minProperties"].contains(keyword) {
                    keywords[keyword] = .number(max(old, new))
                } else if ["maximum", "maxLength", "maxItems", "maxProperties"].contains(keyword) {
                    keywords[keyword] = .number(min(old, new))
                }
            }
        }
        return keywords
    }

    /// A value of the type all `parts` allow, from their keywords.
    private func ownValue(
        _ parts: [SchemaValidator.SchemaPart], _ pointers: [String], depth: Int, below: Below
    ) -> JSONValue {
        let keywords = Self.merged(parts)
        let type = Self.sharedType(of: parts) ?? Self.impliedType(keywords)
        switch type {
        case "object":
            return object(parts, depth: depth, below: below)
        case "array":
            let minimum = Self.number(keywords["minItems"]).map { Int($0) } ?? 0
            let itemParts = parts.filter { $0.keywords["items"] != nil }
            guard let nearest = itemParts.map(\.distance).min(),
                depth + nearest < Self.optionalDepth || minimum > 0,
                let item = value(forSchemasAt: itemParts.map { "\($0.pointer)/items" }, depth: depth + nearest + 1)
            else { return .array([]) }
            return .array(Array(repeating: item, count: max(minimum, 1)))
        case "integer", "number": return .number(Self.number(keywords, integer: type == "integer"))
        case "boolean": return .bool(true)
        case "null": return .null
        case "string": return .string(string(keywords, pointers))
        // A schema that constrains no type allows any value.
        default: return .object([:])
        }
    }

    /// The first type every part that names types allows, not `null` where another will do (an
    /// integer where one part says number and another integer); `nil` when no part names one.
    private static func sharedType(of parts: [SchemaValidator.SchemaPart]) -> String? {
        let named: [[String]] = parts.compactMap { part in
            switch part.keywords["type"] {
            case .string(let type)?: [type]
            case .array(let types)?: types.compactMap { if case .string(let type) = $0 { type } else { nil } }
            default: nil
            }
        }
        guard let first = named.first else { return nil }
        func allowed(_ type: String) -> Bool {
            named.allSatisfy { $0.contains(type) || (type == "integer" && $0.contains("number")) }
        }
        let types = named.joined()
        return types.first { $0 != "null" && allowed($0) } ?? (allowed("null") ? "null" : first.first)
    }

    /// An object with the properties of every part: each required one, and the others down to
    /// ``optionalDepth`` and those `below` says past it, but write-only ones, each made from every
    /// part that describes it.
    private func object(_ parts: [SchemaValidator.SchemaPart], depth: Int, below: Below) -> JSONValue {
        var required: Set<String> = []
        var described: [String: [(pointer: String, distance: Int)]] = [:]
        for part in parts {
            if case .array(let names)? = part.keywords["required"] {
                for case .string(let name) in names { required.insert(name) }
            }
            guard case .object(let properties)? = part.keywords["properties"] else { continue }
            for name in properties.keys {
                described[name, default: []].append(
                    ("\(part.pointer)/properties/\(name.pointerEscaped)", part.distance))
            }
        }
        var members: [String: JSONValue] = [:]
        for (name, schemas) in described {
            let nearest = schemas.map(\.distance).min() ?? 0
            guard
                required.contains(name)
                    || ((depth + nearest < Self.optionalDepth || below == .every
                        || (below == .pinned && isPinned(schemas.map(\.pointer))))
                        && !schemas.contains { isWriteOnly($0.pointer) })
            else { continue }
            members[name] = value(forSchemasAt: schemas.map(\.pointer), depth: depth + nearest + 1)
        }
        // A name required where no part describes it takes any value.
        for name in required where described[name] == nil { members[name] = .object([:]) }
        return .object(members)
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

    /// Whether a part of the schemas at `pointers` allows only some values.
    private func isPinned(_ pointers: [String]) -> Bool {
        (validator.parts(of: pointers) ?? []).contains { $0.keywords["enum"] != nil || $0.keywords["const"] != nil }
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
    private func string(_ keywords: [String: JSONValue], _ pointers: [String]) -> String {
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
        return candidates.first { passes(.string($0), pointers) } ?? fitted
    }

    /// A string of each format the checks know, which they pass, and of the common ones they do not check.
    private static let strings = [
        "date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "time": "00:00:00Z",
        "uuid": "00000000-0000-4000-8000-000000000000", "email": "user@example.com", "byte": "",
        "uri": "https://example.com", "url": "https://example.com", "uri-reference": "/example",
        "hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    ]
}
