import Foundation

/// A ``ValueMatcher`` with its regular expression, JSON document or JSON path parsed once.
indirect enum CompiledValueMatcher: Sendable {
    case equalTo(String, caseInsensitive: Bool)
    case contains(String)
    case doesNotContain(String)
    case matches(CompiledExpression)
    case doesNotMatch(CompiledExpression)
    case present
    case absent
    case equalToJSON(JSONValue, JSONComparison)
    case jsonPath(JSONPath, CompiledValueMatcher)
    case xPath(XPath, CompiledValueMatcher)
    case and([CompiledValueMatcher])
    case or([CompiledValueMatcher])
    case not(CompiledValueMatcher)

    /// Compiles `matcher`; `fail` turns what is wrong with it into the error to throw.
    init(_ matcher: ValueMatcher, fail: (String) -> DecoyError) throws(DecoyError) {
        switch matcher {
        case .equalTo(let text, let caseInsensitive):
            self = .equalTo(caseInsensitive ? text.lowercased() : text, caseInsensitive: caseInsensitive)
        case .contains(let text): self = .contains(text)
        case .doesNotContain(let text): self = .doesNotContain(text)
        case .matches(let pattern): self = .matches(try CompiledExpression(pattern, orThrow: fail))
        case .doesNotMatch(let pattern): self = .doesNotMatch(try CompiledExpression(pattern, orThrow: fail))
        case .present: self = .present
        case .absent: self = .absent
        case .equalToJSON(let text, let ignoreArrayOrder, let ignoreExtraElements):
            guard let expected = JSONValue(parsing: text) else { throw fail("the expected document is not valid JSON") }
            self = .equalToJSON(
                expected, JSONComparison(ignoreArrayOrder: ignoreArrayOrder, ignoreExtraElements: ignoreExtraElements))
        case .matchesJSONPath(let expression, let matcher):
            let path: JSONPath
            do { path = try JSONPath(parsing: expression) } catch {
                throw fail("JSON path \"\(expression)\": \(error)")
            }
            self = .jsonPath(path, try CompiledValueMatcher(matcher, fail: fail))
        case .matchesXPath(let expression, let matcher):
            let path: XPath
            do { path = try XPath(parsing: expression) } catch { throw fail("XPath \"\(expression)\": \(error)") }
            self = .xPath(path, try CompiledValueMatcher(matcher, fail: fail))
        case .and(let matchers): self = .and(try Self.compile(matchers, fail: fail))
        case .or(let matchers): self = .or(try Self.compile(matchers, fail: fail))
        case .not(let matcher): self = .not(try CompiledValueMatcher(matcher, fail: fail))
        }
    }

    /// Whether `values`, all the request has of the part matched (none when it is missing), pass.
    func accepts(_ values: [String]) -> Bool {
        switch self {
        case .present: !values.isEmpty
        case .absent: values.isEmpty
        case .equalTo(let text, let caseInsensitive):
            values.contains { (caseInsensitive ? $0.lowercased() : $0) == text }
        case .contains(let text): values.contains { $0.contains(text) }
        case .doesNotContain(let text): !values.contains { $0.contains(text) }
        case .matches(let expression): values.contains { expression.matchesWhole($0) == true }
        case .doesNotMatch(let expression): values.allSatisfy { expression.matchesWhole($0) == false }
        case .equalToJSON(let expected, let comparison):
            values.contains { JSONValue(parsing: $0).map { comparison.matches($0, expected: expected) } ?? false }
        case .jsonPath(let path, let matcher):
            values.contains {
                JSONValue(parsing: $0).map { document in
                    matcher.accepts(path.select(in: document).map { matcher.render($0, decimals: path.yieldsDecimals) })
                } ?? false
            }
        case .xPath(let path, let matcher):
            values.contains { XMLTree(parsing: Data($0.utf8)).map { matcher.accepts(path.select(in: $0)) } ?? false }
        case .and(let matchers): matchers.allSatisfy { $0.accepts(values) }
        case .or(let matchers): matchers.contains { $0.accepts(values) }
        case .not(let matcher): !matcher.accepts(values)
        }
    }

    private static func compile(_ matchers: [ValueMatcher], fail: (String) -> DecoyError) throws(DecoyError)
        -> [CompiledValueMatcher]
    {
        var compiled: [CompiledValueMatcher] = []
        for matcher in matchers { compiled.append(try CompiledValueMatcher(matcher, fail: fail)) }
        return compiled
    }

    /// A selected JSON value as this matcher reads it: JSON matchers take JSON, the others take
    /// strings bare, and numbers a path gives as doubles as WireMock writes them (`4.0`).
    private func render(_ value: JSONValue, decimals: Bool) -> String {
        if decimals, case .number(let number) = value { return number.javaText }
        switch self {
        case .equalToJSON, .jsonPath: return value.json
        default: return value.text
        }
    }
}

extension ValueMatcher {
    /// Throws what keeps the matcher from compiling, for a stub file to report where it is written.
    package func validate() throws(DecoyError) {
        _ = try CompiledValueMatcher(self) { DecoyError.invalidRoute(path: "", reason: $0) }
    }

    /// The matcher as a test of a mapping's `metadata`, as WireMock's `findStubsByMetadata` applies it.
    package func metadataTest() throws(DecoyError) -> @Sendable (StubMapping) -> Bool {
        let matcher = try CompiledValueMatcher(self) { DecoyError.invalidRoute(path: "metadata", reason: $0) }
        return { matcher.accepts($0.metadata) }
    }
}
