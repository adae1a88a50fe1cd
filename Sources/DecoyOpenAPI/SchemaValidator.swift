import Decoy
import Foundation

/// One way a value misses its schema: the schema keyword it fails, by JSON pointer, and where in the value.
struct SchemaViolation: Sendable, Equatable {
    /// The failing keyword: `#/components/schemas/NewUser/properties/name/minLength`.
    let schemaPath: String
    /// Where in the value, as a JSON pointer: `/name`; empty for the whole value.
    let instancePath: String
    let message: String
}

/// Checks JSON values against the schemas of an OpenAPI document, 3.0's dialect and 3.1's,
/// keyword by keyword; what it does not check, the document's reader reports.
struct SchemaValidator: Sendable {
    let document: JSONValue

    /// The keywords checked.
    static let checked: Set<String> = [
        "$ref", "type", "nullable", "enum", "const", "multipleOf", "maximum", "minimum", "exclusiveMaximum",
        "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "items", "maxItems", "minItems", "uniqueItems", "properties", "required",
        "additionalProperties", "maxProperties", "minProperties", "allOf", "anyOf", "oneOf", "not", "readOnly",
        "format",
    ]
    /// The formats checked, each by the pattern a string must match; a number format by its range.
    /// `float`, `double`, `binary` and `password` constrain nothing a JSON value can break.
    static let formats: [String: String?] = [
        "date-time": #"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"#,
        "date": #"^\d{4}-\d{2}-\d{2}$"#,
        "uuid": #"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"#,
        "email": #"^[^@\s]+@[^@\s]+\.[^@\s]+$"#,
        "uri": #"^[A-Za-z][A-Za-z0-9+.-]*:\S*$"#,
        "byte": #"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"#,
        "int32": nil, "int64": nil, "float": nil, "double": nil, "binary": nil, "password": nil,
    ]
    /// Keywords that only describe, which no checker could fail a value on.
    static let annotations: Set<String> = [
        "title", "description", "default", "example", "examples", "deprecated", "externalDocs", "$comment", "xml",
        "discriminator",
        // Write-only properties are left out of responses, and only requests are checked.
        "writeOnly",
    ]

    /// A schema nested deeper than this is a reference cycle the value keeps following; it stops there.
    private static let depthLimit = 64

    /// Every violation of the schema at `pointer` by `value`.
    func violations(of value: JSONValue, schemaAt pointer: String, at instancePath: String = "") -> [SchemaViolation] {
        var found: [SchemaViolation] = []
        check(value, pointer, instancePath, depth: 0, into: &found)
        return found
    }

    /// One of the schemas a value must pass together, which a `$ref` or an `allOf` join.
    struct SchemaPart {
        let pointer: String
        let keywords: [String: JSONValue]
        /// How many references and allOf parts lead to it from the schema it was gathered from.
        let distance: Int
    }

    /// The schemas at `pointers`, what their references lead to and their allOf parts, and so on
    /// down, each once, the nearest first; `nil` when one of them allows no value or is missing.
    func parts(of pointers: [String]) -> [SchemaPart]? {
        var parts: [SchemaPart] = []
        var seen: Set<String> = []
        func gather(_ pointer: String, distance: Int) -> Bool {
            guard seen.insert(pointer).inserted else { return true }
            guard distance < Self.depthLimit, let schema = document.at(pointer) else { return false }
            guard case .object(let keywords) = schema else { return schema != .bool(false) }
            parts.append(SchemaPart(pointer: pointer, keywords: keywords, distance: distance))
            if case .string(let reference)? = keywords["$ref"], !gather(reference, distance: distance + 1) {
                return false
            }
            guard case .array(let all)? = keywords["allOf"] else { return true }
            return all.indices.allSatisfy { gather("\(pointer)/allOf/\($0)", distance: distance + 1) }
        }
        return pointers.allSatisfy { gather($0, distance: 0) } ? parts : nil
    }

    /// `joined` is the schema whose references and allOf parts `pointer` is one of, which a
    /// `required` of this one may name the read-only properties of.
    private func check(
        _ value: JSONValue, _ pointer: String, _ path: String, depth: Int, joined: String? = nil,
        into found: inout [SchemaViolation]
    ) {
        // This schema's own misses, apart from `found`, which the checks of nested schemas append to meanwhile.
        var own: [SchemaViolation] = []
        defer { found += own }
        func fail(_ keyword: String, _ message: String) {
            own.append(SchemaViolation(schemaPath: "\(pointer)/\(keyword)", instancePath: path, message: message))
        }
        guard depth < Self.depthLimit, let schema = document.at(pointer) else {
            found.append(
                SchemaViolation(schemaPath: pointer, instancePath: path, message: "the schema cannot be followed"))
            return
        }
        guard case .object(let keywords) = schema else {
            if schema == .bool(false) {
                found.append(
                    SchemaViolation(schemaPath: pointer, instancePath: path, message: "no value is allowed here"))
            }
            return
        }
        if case .string(let reference)? = keywords["$ref"] {
            check(value, reference, path, depth: depth + 1, joined: joined ?? pointer, into: &found)
        }
        if value == .null, keywords["nullable"] == .bool(true) { return }
        if let types = keywords["type"] {
            let names: [String] =
                switch types {
                case .string(let name): [name]
                case .array(let names): names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                default: []
                }
            guard names.contains(where: { Self.value(value, hasType: $0) }) else {
                fail("type", "expected \(names.joined(separator: " or ")), got \(Self.describe(value))")
                return
            }
        }
        if case .array(let allowed)? = keywords["enum"], !allowed.contains(value) {
            fail("enum", "\(Self.describe(value)) is not one of \(allowed.map(Self.describe).joined(separator: ", "))")
        }
        if let constant = keywords["const"], constant != value {
            fail("const", "expected \(Self.describe(constant)), got \(Self.describe(value))")
        }
        if case .string(let format)? = keywords["format"] { checkFormat(format, of: value, fail) }
        switch value {
        case .number(let number): checkNumber(number, keywords, fail)
        case .string(let text): checkString(text, keywords, fail)
        case .array(let items): checkArray(items, keywords, pointer, path, depth: depth, into: &found, fail)
        case .object(let members):
            checkObject(members, keywords, (pointer, joined ?? pointer), path, depth: depth, into: &found, fail)
        case .null, .bool: break
        }
        checkCombinations(value, keywords, (pointer, joined ?? pointer), path, depth: depth, into: &found, fail)
    }

    private func checkFormat(_ format: String, of value: JSONValue, _ fail: (String, String) -> Void) {
        switch (format, value) {
        case ("int32", .number(let number)) where number < Double(Int32.min) || number > Double(Int32.max),
            ("int64", .number(let number)) where number < -0x1p63 || number >= 0x1p63:
            fail("format", "\(Self.describe(value)) is outside the range of \(format)")
        case (_, .string(let text)):
            guard let pattern = Self.formats[format] ?? nil else { return }
            if text.range(of: pattern, options: .regularExpression) == nil {
                fail("format", "\(Self.describe(value)) is not a valid \(format)")
            }
        default:
            return
        }
    }

    private func checkNumber(_ number: Double, _ keywords: [String: JSONValue], _ fail: (String, String) -> Void) {
        func bound(_ name: String) -> Double? { if case .number(let bound)? = keywords[name] { bound } else { nil } }
        // 3.0 writes an exclusive bound as a flag beside maximum or minimum; 3.1 as a number of its own.
        let exclusiveMaximum = keywords["exclusiveMaximum"] == .bool(true)
        let exclusiveMinimum = keywords["exclusiveMinimum"] == .bool(true)
        if let maximum = bound("maximum"), exclusiveMaximum ? number >= maximum : number > maximum {
            fail(
                "maximum",
                """
                \(Self.describe(.number(number))) is above the maximum \
                \(Self.describe(.number(maximum)))\(exclusiveMaximum ? " (exclusive)" : "")
                """
            )
        }
        if let minimum = bound("minimum"), exclusiveMinimum ? number <= minimum : number < minimum {
            fail(
                "minimum",
                """
                \(Self.describe(.number(number))) is below the minimum \
                \(Self.describe(.number(minimum)))\(exclusiveMinimum ? " (exclusive)" : "")
                """
            )
        }
        if let maximum = bound("exclusiveMaximum"), number >= maximum {
            fail(
                "exclusiveMaximum", "\(Self.describe(.number(number))) is not below \(Self.describe(.number(maximum)))")
        }
        if let minimum = bound("exclusiveMinimum"), number <= minimum {
            fail(
                "exclusiveMinimum", "\(Self.describe(.number(number))) is not above \(Self.describe(.number(minimum)))")
        }
        if let divisor = bound("multipleOf"), divisor > 0, (number / divisor).rounded() != number / divisor {
            fail(
                "multipleOf",
                "\(Self.describe(.number(number))) is not a multiple of \(Self.describe(.number(divisor)))")
        }
    }

    private func checkString(_ text: String, _ keywords: [String: JSONValue], _ fail: (String, String) -> Void) {
        // JSON Schema counts a string's length in code points.
        let length = text.unicodeScalars.count
        if case .number(let maximum)? = keywords["maxLength"], Double(length) > maximum {
            fail("maxLength", "\(Self.describe(.string(text))) is longer than \(Int(maximum)) characters")
        }
        if case .number(let minimum)? = keywords["minLength"], Double(length) < minimum {
            fail("minLength", "\(Self.describe(.string(text))) is shorter than \(Int(minimum)) characters")
        }
        if case .string(let pattern)? = keywords["pattern"] {
            guard let expression = try? NSRegularExpression(pattern: pattern) else {
                fail("pattern", "the pattern \(pattern) is not a regular expression Decoy can run")
                return
            }
            if expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                fail("pattern", "\(Self.describe(.string(text))) does not match \(pattern)")
            }
        }
    }

    private func checkArray(
        _ items: [JSONValue], _ keywords: [String: JSONValue], _ pointer: String, _ path: String, depth: Int,
        into found: inout [SchemaViolation], _ fail: (String, String) -> Void
    ) {
        if case .number(let maximum)? = keywords["maxItems"], Double(items.count) > maximum {
            fail("maxItems", "more than \(Int(maximum)) items")
        }
        if case .number(let minimum)? = keywords["minItems"], Double(items.count) < minimum {
            fail("minItems", "fewer than \(Int(minimum)) items")
        }
        if keywords["uniqueItems"] == .bool(true), Set(items).count != items.count {
            fail("uniqueItems", "the items are not unique")
        }
        if keywords["items"] != nil {
            for (index, item) in items.enumerated() {
                check(item, "\(pointer)/items", "\(path)/\(index)", depth: depth + 1, into: &found)
            }
        }
    }

    private func checkObject(
        _ members: [String: JSONValue], _ keywords: [String: JSONValue], _ at: (pointer: String, joined: String),
        _ path: String, depth: Int, into found: inout [SchemaViolation], _ fail: (String, String) -> Void
    ) {
        let pointer = at.pointer
        if case .array(let required)? = keywords["required"] {
            // A read-only property is required of responses alone, and the property may be
            // described by another part of an allOf than the one that requires it.
            for case .string(let name) in required where members[name] == nil && !isReadOnly(name, in: at.joined) {
                fail("required", "the property \"\(name)\" is missing")
            }
        }
        if case .number(let maximum)? = keywords["maxProperties"], Double(members.count) > maximum {
            fail("maxProperties", "more than \(Int(maximum)) properties")
        }
        if case .number(let minimum)? = keywords["minProperties"], Double(members.count) < minimum {
            fail("minProperties", "fewer than \(Int(minimum)) properties")
        }
        let properties = keywords["properties"]
        for name in members.keys.sorted() {
            let memberPath = "\(path)/\(name.pointerEscaped)"
            if properties?[name] != nil {
                check(
                    members[name]!, "\(pointer)/properties/\(name.pointerEscaped)", memberPath, depth: depth + 1,
                    into: &found)
            } else if keywords["additionalProperties"] == .bool(false) {
                found.append(
                    SchemaViolation(
                        schemaPath: "\(pointer)/additionalProperties", instancePath: memberPath,
                        message: "the property \"\(name)\" is not allowed"))
            } else if case .object? = keywords["additionalProperties"] {
                check(members[name]!, "\(pointer)/additionalProperties", memberPath, depth: depth + 1, into: &found)
            }
        }
    }

    /// Whether a part of the schema at `pointer` describes the property `name` as `readOnly: true`.
    private func isReadOnly(_ name: String, in pointer: String) -> Bool {
        let described = (parts(of: [pointer]) ?? []).compactMap { part in
            part.keywords["properties"]?[name] == nil ? nil : "\(part.pointer)/properties/\(name.pointerEscaped)"
        }
        return (parts(of: described) ?? []).contains { $0.keywords["readOnly"] == .bool(true) }
    }

    private func checkCombinations(
        _ value: JSONValue, _ keywords: [String: JSONValue], _ at: (pointer: String, joined: String), _ path: String,
        depth: Int, into found: inout [SchemaViolation], _ fail: (String, String) -> Void
    ) {
        let pointer = at.pointer
        func subschemas(_ keyword: String) -> [String] {
            guard case .array(let schemas)? = keywords[keyword] else { return [] }
            return schemas.indices.map { "\(pointer)/\(keyword)/\($0)" }
        }
        func passes(_ schema: String) -> Bool {
            var misses: [SchemaViolation] = []
            check(value, schema, path, depth: depth + 1, into: &misses)
            return misses.isEmpty
        }
        for schema in subschemas("allOf") {
            check(value, schema, path, depth: depth + 1, joined: at.joined, into: &found)
        }
        let anyOf = subschemas("anyOf")
        if !anyOf.isEmpty, !anyOf.contains(where: passes) {
            fail("anyOf", "matches none of the \(anyOf.count) schemas")
        }
        let oneOf = subschemas("oneOf")
        if !oneOf.isEmpty {
            let passing = oneOf.filter(passes).count
            if passing != 1 { fail("oneOf", "matches \(passing) of the \(oneOf.count) schemas, not exactly one") }
        }
        if keywords["not"] != nil, passes("\(pointer)/not") { fail("not", "matches the schema it must not") }
    }

    private static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }

    /// A value as the message quotes it: compact JSON.
    static func describe(_ value: JSONValue) -> String {
        String(decoding: compactJSON(value), as: UTF8.self)
    }
}
