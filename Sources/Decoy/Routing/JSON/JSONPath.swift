/// JSONPath as WireMock's matchers use it (Jayway's dialect), parsed once at registration.
///
/// `$` is the document; `.name` and `['name']` select a member, `[2]` an element (`[-1]` the
/// last), `[*]` or `.*` every element or member, `[0,2]` and `['a','b']` several, `[1:3]` a
/// slice, and `..` any depth. A filter `[?(…)]` keeps the elements for which its condition
/// holds: `@` is the element, conditions compare (`==`, `!=`, `<`, `<=`, `>`, `>=`) a relative
/// path with a literal or another path, or test that a path exists, and combine with `&&`, `||`
/// and `!`. A path may end in one of Jayway 2.7's functions (``Function``), `$.items.length()`,
/// `$..price.max()`, and so may a path in a filter, `[?(@.tags.length() > 1)]`. What the dialect
/// has beyond that (regular expressions in filters, functions Jayway 2.7 lacks, such as `first()`)
/// is refused when the route is registered rather than silently matching nothing.
struct JSONPath: Sendable, CustomStringConvertible {
    indirect enum Step: Sendable, Hashable {
        case member(String)
        case index(Int)
        case all
        case slice(start: Int?, end: Int?)
        case union([Step])
        /// The step applied to the value and to everything below it.
        case descendants(Step)
        case filter(Condition)
    }

    /// A filter's condition on one element.
    indirect enum Condition: Sendable, Hashable {
        case exists([Step])
        case comparison(Operand, Comparison, Operand)
        case and(Condition, Condition)
        case or(Condition, Condition)
        case not(Condition)
    }

    enum Operand: Sendable, Hashable {
        /// A path from the element, `@…`, or from the document, `$…`, perhaps ending in a function.
        case path(fromRoot: Bool, [Step], Function?)
        case literal(JSONValue)
    }

    /// A function that ends a path, as Jayway 2.7 has them; `size` is its other name for `length`.
    struct Function: Sendable, Hashable {
        enum Name: String, Sendable, Hashable, CaseIterable {
            case length, size, min, max, avg, sum, stddev, keys, concat, append
        }

        let name: Name
        /// What is written between the parentheses: literals, or paths whose values join in.
        let arguments: [Operand]

        /// Whether its numbers are Java doubles, which WireMock writes with a fraction (`4.0`).
        var yieldsDecimals: Bool {
            switch name {
            case .min, .max, .avg, .sum, .stddev: true
            default: false
            }
        }
    }

    enum Comparison: String, Sendable, Hashable, CaseIterable {
        // Two-character operators first, so that `<=` is not read as `<`.
        case equal = "=="
        case notEqual = "!="
        case lessOrEqual = "<="
        case greaterOrEqual = ">="
        case less = "<"
        case greater = ">"
    }

    let steps: [Step]
    /// The function the path ends in, if any.
    let function: Function?
    let description: String

    /// Parses `expression`; the error text says what is wrong.
    init(parsing expression: String) throws(PathSyntaxError) {
        description = expression
        var parser = JSONPathParser(expression)
        guard parser.take("$") else { throw PathSyntaxError("a JSON path starts with \"$\"") }
        (steps, function) = try parser.steps(until: { $0 == nil })
    }

    /// The values the path selects in `document`; nulls count as absent.
    func select(in document: JSONValue) -> [JSONValue] {
        Self.select(steps, function, from: document, root: document).filter { $0 != .null }
    }

    /// Whether the numbers the path gives are Java doubles, which WireMock writes with a fraction:
    /// those of `min()`, `max()`, `avg()`, `sum()` and `stddev()`.
    var yieldsDecimals: Bool { function?.yieldsDecimals == true }

    /// Whether the path may select several values (Jayway's indefinite paths: wildcards, slices,
    /// unions, `..` and filters, unless a function takes all they select).
    var isIndefinite: Bool { Self.isIndefinite(steps, function) }

    fileprivate static func isIndefinite(_ steps: [Step], _ function: Function?) -> Bool {
        if function != nil, case .descendants = steps.first { return false }
        return steps.contains { step in
            switch step {
            case .member, .index: false
            case .all, .slice, .union, .descendants, .filter: true
            }
        }
    }

    fileprivate static func select(_ steps: [Step], _ function: Function?, from value: JSONValue, root: JSONValue)
        -> [JSONValue]
    {
        guard let function else { return select(steps, from: value, root: root) }
        if case .descendants = steps.first {
            // Jayway turns `$..a.f()` into `$.f($..a)`: the function takes all the scan selects at once.
            return function.apply(to: value, arguments: [.path(fromRoot: false, steps, nil)], root: root).map { [$0] }
                ?? []
        }
        var results: [JSONValue] = []
        for selected in select(steps, from: value, root: root) {
            // Jayway fails the whole path when the function fails on one value.
            guard let result = function.apply(to: selected, arguments: function.arguments, root: root) else {
                return []
            }
            results.append(result)
        }
        return results
    }

    private static func select(_ steps: [Step], from value: JSONValue, root: JSONValue) -> [JSONValue] {
        steps.reduce([value]) { values, step in values.flatMap { children(of: $0, at: step, root: root) } }
    }

    private static func children(of value: JSONValue, at step: Step, root: JSONValue) -> [JSONValue] {
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
        case (.slice(let start, let end), .array(let elements)):
            func position(_ index: Int) -> Int {
                min(max(index < 0 ? elements.count + index : index, 0), elements.count)
            }
            let (from, to) = (position(start ?? 0), position(end ?? elements.count))
            return from < to ? Array(elements[from..<to]) : []
        case (.union(let steps), _):
            return steps.flatMap { children(of: value, at: $0, root: root) }
        case (.descendants(let step), _):
            return descendantsAndSelf(of: value).flatMap { children(of: $0, at: step, root: root) }
        case (.filter(let condition), .array(let elements)):
            return elements.filter { holds(condition, for: $0, root: root) }
        case (.filter(let condition), .object):
            // As Jayway does: a filter on an object tests the object itself.
            return holds(condition, for: value, root: root) ? [value] : []
        default:
            return []
        }
    }

    private static func descendantsAndSelf(of value: JSONValue) -> [JSONValue] {
        switch value {
        case .array(let elements): [value] + elements.flatMap(descendantsAndSelf)
        case .object(let members):
            [value] + members.sorted { $0.key < $1.key }.flatMap { descendantsAndSelf(of: $0.value) }
        default: [value]
        }
    }

    private static func holds(_ condition: Condition, for element: JSONValue, root: JSONValue) -> Bool {
        switch condition {
        case .exists(let steps): return !select(steps, from: element, root: root).isEmpty
        case .and(let first, let second):
            return holds(first, for: element, root: root) && holds(second, for: element, root: root)
        case .or(let first, let second):
            return holds(first, for: element, root: root) || holds(second, for: element, root: root)
        case .not(let inner): return !holds(inner, for: element, root: root)
        case .comparison(let left, let comparison, let right):
            // A path that selects nothing, or several values, compares with nothing.
            guard let left = value(of: left, for: element, root: root),
                let right = value(of: right, for: element, root: root)
            else { return false }
            return compare(left, comparison, right)
        }
    }

    private static func value(of operand: Operand, for element: JSONValue, root: JSONValue) -> JSONValue? {
        switch operand {
        case .literal(let value): return value
        case .path(let fromRoot, let steps, let function):
            let selected = select(steps, function, from: fromRoot ? root : element, root: root)
            return selected.count == 1 ? selected[0] : nil
        }
    }

    private static func compare(_ left: JSONValue, _ comparison: Comparison, _ right: JSONValue) -> Bool {
        switch comparison {
        case .equal: return left == right
        case .notEqual: return left != right
        default: break
        }
        let order: Bool? =
            switch (left, right) {
            case (.number(let a), .number(let b)): comparison.orders(a, b)
            case (.string(let a), .string(let b)): comparison.orders(a, b)
            default: nil
            }
        return order ?? false
    }
}

extension JSONPath.Function {
    /// The function's value for `model`, as Jayway 2.7 computes it; `nil` where Jayway fails or
    /// gives null (an aggregate of no numbers, the length of text, the keys of a list).
    fileprivate func apply(to model: JSONValue, arguments: [JSONPath.Operand], root: JSONValue) -> JSONValue? {
        switch name {
        case .length, .size:
            if case .path(let fromRoot, let steps, nil) = arguments.first {
                // Jayway counts the children of what its argument selects.
                return .number(
                    Double(JSONPath.select(steps + [.all], nil, from: fromRoot ? root : model, root: root).count))
            }
            switch model {
            case .array(let elements): return .number(Double(elements.count))
            case .object(let members): return .number(Double(members.count))
            default: return nil
            }
        case .keys:
            guard case .object(let members) = model else { return nil }
            return .array(members.keys.sorted().map(JSONValue.string))
        case .concat:
            var text = ""
            if case .array(let elements) = model {
                for case .string(let element) in elements { text += element }
            }
            for value in values(of: arguments, model: model, root: root) { text += value.text }
            return .string(text)
        case .append:
            guard case .array(let elements) = model else { return nil }
            return .array(elements + values(of: arguments, model: model, root: root))
        case .min, .max, .avg, .sum, .stddev:
            var numbers: [Double] = []
            if case .array(let elements) = model {
                for case .number(let number) in elements { numbers.append(number) }
            }
            for value in values(of: arguments, model: model, root: root) {
                switch value {
                case .number(let number): numbers.append(number)
                case .array(let elements): for case .number(let number) in elements { numbers.append(number) }
                default: break
                }
            }
            guard let first = numbers.first else { return nil }
            let sum = numbers.reduce(0, +)
            let count = Double(numbers.count)
            switch name {
            case .min: return .number(numbers.reduce(first, Swift.min))
            case .max: return .number(numbers.reduce(first, Swift.max))
            case .sum: return .number(sum)
            case .avg: return .number(sum / count)
            default:
                // Jayway's population deviation, in its order of operations, so the digits agree.
                let squares = numbers.reduce(0) { $0 + $1 * $1 }
                return .number((squares / count - sum * sum / count / count).squareRoot())
            }
        }
    }

    /// The arguments' values: a literal as it is, a path's selection as a list when it may select several.
    private func values(of arguments: [JSONPath.Operand], model: JSONValue, root: JSONValue) -> [JSONValue] {
        arguments.compactMap { argument in
            switch argument {
            case .literal(let value): return value
            case .path(let fromRoot, let steps, let function):
                let selected = JSONPath.select(steps, function, from: fromRoot ? root : model, root: root)
                return JSONPath.isIndefinite(steps, function) ? .array(selected) : selected.first
            }
        }
    }
}

extension JSONPath.Comparison {
    fileprivate func orders<Value: Comparable>(_ a: Value, _ b: Value) -> Bool {
        switch self {
        case .less: a < b
        case .lessOrEqual: a <= b
        case .greater: a > b
        case .greaterOrEqual: a >= b
        case .equal: a == b
        case .notEqual: a != b
        }
    }
}

/// Reads a JSON path one character at a time.
private struct JSONPathParser {
    private var rest: Substring

    init(_ expression: String) {
        rest = Substring(expression)
    }

    /// Takes `text` when the rest starts with it.
    mutating func take(_ text: String) -> Bool {
        guard rest.hasPrefix(text) else { return false }
        rest = rest.dropFirst(text.count)
        return true
    }

    private mutating func skipSpaces() {
        rest = rest.drop { $0 == " " }
    }

    /// Steps until `end` says the next character ends them (`nil` at the end of the text), and
    /// the function that may end them.
    mutating func steps(until end: (Character?) -> Bool) throws(PathSyntaxError) -> (
        [JSONPath.Step], JSONPath.Function?
    ) {
        var steps: [JSONPath.Step] = []
        while !end(rest.first) {
            if let function = try function() {
                guard end(rest.first) else {
                    throw PathSyntaxError("\(function.name.rawValue)() ends the path; nothing may follow it")
                }
                return (steps, function)
            }
            if take("..") {
                if rest.first == "[" {
                    rest = rest.dropFirst()
                    steps.append(.descendants(try bracket()))
                } else {
                    steps.append(.descendants(try dotted()))
                }
            } else if take(".") {
                steps.append(try dotted())
            } else if take("[") {
                steps.append(try bracket())
            } else {
                throw PathSyntaxError(
                    """
                    unexpected \"\(rest.first.map(String.init) ?? "")\"; steps are \".name\", \"['name']\", \
                    \"[index]\", \"[*]\" or \"[?(…)]\"
                    """
                )
            }
        }
        return (steps, nil)
    }

    /// `.name(arguments)`, when the rest starts with one.
    private mutating func function() throws(PathSyntaxError) -> JSONPath.Function? {
        guard rest.first == "." else { return nil }
        let name = rest.dropFirst().prefix { !".[ ()=!<>&|,".contains($0) }
        guard rest.dropFirst(1 + name.count).first == "(" else { return nil }
        guard let known = JSONPath.Function.Name(rawValue: String(name)) else {
            throw PathSyntaxError(
                """
                \"\(name)()\" is not a function of WireMock's JSON paths (Jayway 2.7); they are \
                \(JSONPath.Function.Name.allCases.map { $0.rawValue + "()" }.joined(separator: ", "))
                """
            )
        }
        rest = rest.dropFirst(2 + name.count)
        var arguments: [JSONPath.Operand] = []
        skipSpaces()
        if !take(")") {
            repeat {
                arguments.append(try operand(until: { $0 == nil || " ,)".contains($0!) }))
                skipSpaces()
            } while take(",")
            guard take(")") else { throw PathSyntaxError("\(name)( is not closed with \")\"") }
        }
        return JSONPath.Function(name: known, arguments: arguments)
    }

    /// The step after `.`: a member name or `*`.
    private mutating func dotted() throws(PathSyntaxError) -> JSONPath.Step {
        let name = rest.prefix { !".[ ()=!<>&|".contains($0) }
        guard !name.isEmpty else { throw PathSyntaxError("a member name is missing after \".\"") }
        rest = rest.dropFirst(name.count)
        return name == "*" ? .all : .member(String(name))
    }

    /// The step after `[`, up to and including its `]`.
    private mutating func bracket() throws(PathSyntaxError) -> JSONPath.Step {
        skipSpaces()
        if take("?") {
            guard take("(") else { throw PathSyntaxError("a filter is written \"[?(condition)]\"") }
            let condition = try disjunction()
            skipSpaces()
            guard take(")"), take("]") else { throw PathSyntaxError("a filter is closed by \")]\"") }
            return .filter(condition)
        }
        if take("*") { return try closed(.all) }
        var steps: [JSONPath.Step] = []
        repeat {
            skipSpaces()
            steps.append(try selector())
            skipSpaces()
        } while take(",")
        return try closed(steps.count == 1 ? steps[0] : .union(steps))
    }

    private mutating func closed(_ step: JSONPath.Step) throws(PathSyntaxError) -> JSONPath.Step {
        skipSpaces()
        guard take("]") else { throw PathSyntaxError("\"[\" is not closed") }
        return step
    }

    /// One selector inside brackets: `'name'`, `2`, or a slice `1:3`.
    private mutating func selector() throws(PathSyntaxError) -> JSONPath.Step {
        if let quote = rest.first, quote == "'" || quote == "\"" { return .member(try quoted()) }
        let start = integer()
        if take(":") { return .slice(start: start, end: integer()) }
        guard let start else {
            throw PathSyntaxError("expected \"['name']\", \"[index]\", \"[start:end]\", \"[*]\" or \"[?(…)]\"")
        }
        return .index(start)
    }

    private mutating func integer() -> Int? {
        let digits = rest.prefix { $0.isNumber || $0 == "-" }
        guard let value = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        return value
    }

    private mutating func quoted() throws(PathSyntaxError) -> String {
        guard let quote = rest.first else { throw PathSyntaxError("a quoted name is not closed") }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { throw PathSyntaxError("a quoted name is not closed") }
        defer { rest = rest[rest.index(after: close)...] }
        return String(rest[..<close])
    }

    // MARK: Filter conditions

    private mutating func disjunction() throws(PathSyntaxError) -> JSONPath.Condition {
        var condition = try conjunction()
        while skipSpacesThenTake("||") { condition = .or(condition, try conjunction()) }
        return condition
    }

    private mutating func conjunction() throws(PathSyntaxError) -> JSONPath.Condition {
        var condition = try unary()
        while skipSpacesThenTake("&&") { condition = .and(condition, try unary()) }
        return condition
    }

    private mutating func unary() throws(PathSyntaxError) -> JSONPath.Condition {
        skipSpaces()
        if take("!") { return .not(try unary()) }
        if take("(") {
            let inner = try disjunction()
            guard skipSpacesThenTake(")") else { throw PathSyntaxError("\"(\" is not closed in a filter") }
            return inner
        }
        let left = try operand(until: { $0 == nil || " )=!<>&|".contains($0!) })
        skipSpaces()
        if take("=~") { throw PathSyntaxError("regular expressions in filters (\"=~\") are not supported") }
        guard let comparison = JSONPath.Comparison.allCases.first(where: { take($0.rawValue) }) else {
            guard case .path(let fromRoot, let steps, nil) = left, !fromRoot else {
                throw PathSyntaxError("a filter compares with ==, !=, <, <=, > or >=, or tests a path \"@.name\"")
            }
            return .exists(steps)
        }
        return .comparison(left, comparison, try operand(until: { $0 == nil || " )=!<>&|".contains($0!) }))
    }

    private mutating func skipSpacesThenTake(_ text: String) -> Bool {
        skipSpaces()
        return take(text)
    }

    /// A path from `@` or `$` up to what `end` says ends it, or a literal: a quoted string, a
    /// number, `true`, `false` or `null`.
    private mutating func operand(until end: (Character?) -> Bool) throws(PathSyntaxError) -> JSONPath.Operand {
        skipSpaces()
        for (start, fromRoot) in [("@", false), ("$", true)] where take(start) {
            let (steps, function) = try steps(until: end)
            return .path(fromRoot: fromRoot, steps, function)
        }
        if let quote = rest.first, quote == "'" || quote == "\"" { return .literal(.string(try quoted())) }
        for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)] where take(word)
        {
            return .literal(value)
        }
        let number = rest.prefix { $0.isNumber || "-+.eE".contains($0) }
        guard let value = Double(number) else {
            throw PathSyntaxError(
                "expected \"@…\", \"$…\", a quoted string, a number, true, false or null in a filter")
        }
        rest = rest.dropFirst(number.count)
        return .literal(.number(value))
    }
}
