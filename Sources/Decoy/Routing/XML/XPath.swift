import Foundation

/// The part of XPath 1.0 that WireMock's `matchesXPath` stubs use, parsed once at registration.
///
/// Location paths from the root (`/order/item`) or at any depth (`//item`), `*`, attributes
/// (`@id`), `text()` and `.`, with predicates that test a position (`[1]`, `[last()]`), that a
/// path exists (`[@id]`), or that a path's value equals (`=`) or differs from (`!=`) a quoted
/// literal, a number or another path, combined with `and` and `or`. Everything else XPath has
/// is refused when the route is registered rather than silently matching nothing.
struct XPath: Sendable, CustomStringConvertible {
    enum Axis: Sendable {
        case child, descendant
    }

    enum Test: Sendable {
        case element(String?)
        case attribute(String?)
        case text
        case current
    }

    struct Step: Sendable {
        let axis: Axis
        let test: Test
        let predicates: [Predicate]
    }

    indirect enum Predicate: Sendable {
        case position(Int)
        case last
        case exists([Step])
        case comparison(Operand, equal: Bool, Operand)
        case and(Predicate, Predicate)
        case or(Predicate, Predicate)
    }

    enum Operand: Sendable {
        case path([Step])
        case literal(String)
    }

    /// What a step selects: an element or text node, or an attribute's value.
    enum Item {
        case node(XMLTree)
        case attribute(String)

        var stringValue: String {
            switch self {
            case .node(let node): node.stringValue
            case .attribute(let value): value
            }
        }
    }

    let steps: [Step]
    let description: String

    /// Parses `expression`; the error text says what is wrong.
    init(parsing expression: String) throws(PathSyntaxError) {
        description = expression
        var parser = XPathParser(expression)
        guard parser.peek("/") else { throw PathSyntaxError("an XPath starts at the root, with \"/\" or \"//\"") }
        steps = try parser.path()
        guard parser.atEnd else { throw PathSyntaxError("unexpected \"\(parser.rest.prefix(10))\"") }
    }

    /// The string values of what the path selects in `document`.
    func select(in document: XMLTree) -> [String] {
        items(in: document).map(\.stringValue)
    }

    /// What the path selects in `document`: nodes, and attributes' values.
    func items(in document: XMLTree) -> [Item] {
        // The root step matches the document element, which is the child of a virtual document node.
        let documentNode = XMLTree.element(name: "", attributes: [:], children: [document])
        return Self.evaluate(steps, from: [.node(documentNode)])
    }

    private static func evaluate(_ steps: [Step], from context: [Item]) -> [Item] {
        steps.reduce(context) { items, step in items.flatMap { apply(step, to: $0) } }
    }

    private static func apply(_ step: Step, to item: Item) -> [Item] {
        guard case .node(let node) = item else { return [] }
        let candidates: [XMLTree] =
            switch step.axis {
            case .child: children(of: node)
            case .descendant: descendantsAndSelf(of: node).flatMap(children)
            }
        var selected: [Item] =
            switch step.test {
            case .current: [item]
            case .attribute(let name): attributes(of: node, named: name)
            case .element(let name):
                candidates.filter {
                    if case .element(let candidate, _, _) = $0 { name == nil || candidate == name } else { false }
                }.map(Item.node)
            case .text:
                candidates.filter { if case .text = $0 { true } else { false } }.map(Item.node)
            }
        for predicate in step.predicates {
            let count = selected.count
            selected = selected.enumerated().filter { holds(predicate, for: $1, position: $0 + 1, count: count) }.map(
                \.element)
        }
        return selected
    }

    private static func children(of node: XMLTree) -> [XMLTree] {
        if case .element(_, _, let children) = node { children } else { [] }
    }

    private static func descendantsAndSelf(of node: XMLTree) -> [XMLTree] {
        [node] + children(of: node).flatMap(descendantsAndSelf)
    }

    private static func attributes(of node: XMLTree, named name: String?) -> [Item] {
        guard case .element(_, let attributes, _) = node else { return [] }
        return attributes.sorted { $0.key < $1.key }.filter { name == nil || $0.key == name }.map {
            .attribute($0.value)
        }
    }

    private static func holds(_ predicate: Predicate, for item: Item, position: Int, count: Int) -> Bool {
        switch predicate {
        case .position(let wanted): position == wanted
        case .last: position == count
        case .exists(let steps): !evaluate(steps, from: [item]).isEmpty
        case .and(let first, let second):
            holds(first, for: item, position: position, count: count)
                && holds(second, for: item, position: position, count: count)
        case .or(let first, let second):
            holds(first, for: item, position: position, count: count)
                || holds(second, for: item, position: position, count: count)
        case .comparison(let left, let equal, let right):
            // As XPath compares node sets: true when some pair of values compares so.
            values(of: left, for: item).contains { a in values(of: right, for: item).contains { b in (a == b) == equal }
            }
        }
    }

    private static func values(of operand: Operand, for item: Item) -> [String] {
        switch operand {
        case .literal(let text): [text]
        case .path(let steps): evaluate(steps, from: [item]).map(\.stringValue)
        }
    }
}

/// Reads an XPath one character at a time.
private struct XPathParser {
    private(set) var rest: Substring

    init(_ expression: String) {
        rest = Substring(expression)
    }

    var atEnd: Bool { rest.isEmpty }

    func peek(_ text: String) -> Bool { rest.hasPrefix(text) }

    mutating func take(_ text: String) -> Bool {
        skipSpaces()
        guard rest.hasPrefix(text) else { return false }
        rest = rest.dropFirst(text.count)
        return true
    }

    private mutating func skipSpaces() {
        rest = rest.drop { $0 == " " }
    }

    /// An absolute path: steps each after `/` or `//`.
    mutating func path() throws(PathSyntaxError) -> [XPath.Step] {
        var steps: [XPath.Step] = []
        while true {
            if take("//") {
                steps.append(try step(.descendant))
            } else if take("/") {
                steps.append(try step(.child))
            } else {
                return steps
            }
        }
    }

    /// A path relative to a predicate's node: a step, then more after `/` or `//`.
    private mutating func relativePath() throws(PathSyntaxError) -> [XPath.Step] {
        [try step(.child)] + (try path())
    }

    private mutating func step(_ axis: XPath.Axis) throws(PathSyntaxError) -> XPath.Step {
        skipSpaces()
        let test: XPath.Test
        if take("@") {
            let name = self.name()
            test = .attribute(name == "*" ? nil : name)
            guard !name.isEmpty else { throw PathSyntaxError("an attribute name is missing after \"@\"") }
        } else if take("text()") {
            test = .text
        } else if take("..") {
            throw PathSyntaxError("\"..\" is not supported")
        } else if take(".") {
            test = .current
        } else {
            let name = self.name()
            guard !name.isEmpty else {
                throw PathSyntaxError("a step is missing: expected a name, \"*\", \"@name\", \"text()\" or \".\"")
            }
            if peek("(") { throw PathSyntaxError("the function \"\(name)()\" is not supported") }
            if let axis = name.components(separatedBy: "::").first, axis != name {
                throw PathSyntaxError("axes such as \"\(axis)::\" are not supported")
            }
            test = .element(name == "*" ? nil : name)
        }
        var predicates: [XPath.Predicate] = []
        while take("[") {
            predicates.append(try disjunction())
            guard take("]") else { throw PathSyntaxError("\"[\" is not closed") }
        }
        return XPath.Step(axis: axis, test: test, predicates: predicates)
    }

    private mutating func name() -> String {
        let name = rest.prefix { $0.isLetter || $0.isNumber || "_-.:*".contains($0) }
        rest = rest.dropFirst(name.count)
        return String(name)
    }

    private mutating func disjunction() throws(PathSyntaxError) -> XPath.Predicate {
        var predicate = try conjunction()
        while take(" or ") || take("or ") { predicate = .or(predicate, try conjunction()) }
        return predicate
    }

    private mutating func conjunction() throws(PathSyntaxError) -> XPath.Predicate {
        var predicate = try comparison()
        while take(" and ") || take("and ") { predicate = .and(predicate, try comparison()) }
        return predicate
    }

    private mutating func comparison() throws(PathSyntaxError) -> XPath.Predicate {
        skipSpaces()
        if take("last()") { return .last }
        if let number = number(), !peekComparison() { return .position(number) }
        let left = try operand()
        for (text, equal) in [("!=", false), ("=", true)] where take(text) {
            return .comparison(left, equal: equal, try operand())
        }
        if peekComparison() { throw PathSyntaxError("only = and != compare in predicates") }
        guard case .path(let steps) = left else {
            throw PathSyntaxError("a predicate tests a path, a position, or compares with = or !=")
        }
        return .exists(steps)
    }

    private mutating func peekComparison() -> Bool {
        skipSpaces()
        return ["=", "!=", "<", ">"].contains { rest.hasPrefix($0) }
    }

    private mutating func number() -> Int? {
        let digits = rest.prefix(while: \.isNumber)
        guard let value = Int(digits) else { return nil }
        rest = rest.dropFirst(digits.count)
        return value
    }

    private mutating func operand() throws(PathSyntaxError) -> XPath.Operand {
        skipSpaces()
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else {
                throw PathSyntaxError("a quoted literal is not closed")
            }
            defer { rest = rest[rest.index(after: close)...] }
            return .literal(String(rest[..<close]))
        }
        if let number = number() { return .literal(String(number)) }
        return .path(try relativePath())
    }
}
