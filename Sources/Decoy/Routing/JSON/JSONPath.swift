/// The subset of JSONPath that matchers support, parsed once at registration.
///
/// `$` is the document; `.name` and `['name']` select a member, `[2]` an element (`[-1]` the
/// last), and `[*]` or `.*` every element or member. Filters, slices and recursive descent
/// are refused when the route is registered rather than silently matching nothing.
struct JSONPath: Sendable, CustomStringConvertible {
    enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case all
    }

    let steps: [Step]
    let description: String

    /// Parses `expression`; the error text says what is wrong.
    init(parsing expression: String) throws(JSONPathError) {
        description = expression
        var rest = Substring(expression)
        guard rest.first == "$" else { throw JSONPathError("a JSON path starts with \"$\"") }
        rest = rest.dropFirst()
        var steps: [Step] = []
        while let first = rest.first {
            rest = rest.dropFirst()
            switch first {
            case ".":
                if rest.first == "." { throw JSONPathError("recursive descent \"..\" is not supported") }
                let name = rest.prefix { $0 != "." && $0 != "[" }
                guard !name.isEmpty else { throw JSONPathError("a member name is missing after \".\"") }
                rest = rest.dropFirst(name.count)
                steps.append(name == "*" ? .all : .member(String(name)))
            case "[":
                guard let close = rest.firstIndex(of: "]") else { throw JSONPathError("\"[\" is not closed") }
                steps.append(try Self.bracketStep(rest[..<close]))
                rest = rest[rest.index(after: close)...]
            default:
                throw JSONPathError("unexpected \"\(first)\"; steps are \".name\", \"['name']\", \"[index]\" or \"[*]\"")
            }
        }
        self.steps = steps
    }

    private static func bracketStep(_ inside: Substring) throws(JSONPathError) -> Step {
        if inside == "*" { return .all }
        if let index = Int(inside) { return .index(index) }
        if inside.count >= 2, let quote = inside.first, quote == "'" || quote == "\"", inside.last == quote {
            return .member(String(inside.dropFirst().dropLast()))
        }
        if inside.hasPrefix("?") { throw JSONPathError("filters \"[?(…)]\" are not supported") }
        throw JSONPathError("\"[\(inside)]\" is not supported; use \"[index]\", \"['name']\" or \"[*]\"")
    }

    /// The values the path selects in `document`; nulls count as absent.
    func select(in document: JSONValue) -> [JSONValue] {
        steps.reduce([document]) { values, step in values.flatMap { Self.children(of: $0, at: step) } }
            .filter { $0 != .null }
    }

    private static func children(of value: JSONValue, at step: Step) -> [JSONValue] {
        switch (step, value) {
        case (.member(let name), .object(let members)):
            return members[name].map { [$0] } ?? []
        case (.index(let index), .array(let elements)):
            let position = index < 0 ? elements.count + index : index
            return elements.indices.contains(position) ? [elements[position]] : []
        case (.all, .array(let elements)):
            return elements
        case (.all, .object(let members)):
            return members.sorted { $0.key < $1.key }.map(\.value)
        default:
            return []
        }
    }
}

/// Why a JSON path cannot be parsed.
struct JSONPathError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
