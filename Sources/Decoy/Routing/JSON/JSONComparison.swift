/// How ``ValueMatcher/equalToJSON(_:ignoreArrayOrder:ignoreExtraElements:)`` compares documents.
struct JSONComparison: Sendable, Hashable {
    /// Arrays match whatever the order of their elements.
    var ignoreArrayOrder = false
    /// The actual document may have object members and array elements the expected one has not.
    var ignoreExtraElements = false

    /// Whether `actual` matches `expected` under these options.
    func matches(_ actual: JSONValue, expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (.object(let actual), .object(let expected)):
            guard ignoreExtraElements || actual.count == expected.count else { return false }
            return expected.allSatisfy { key, value in actual[key].map { matches($0, expected: value) } ?? false }
        case (.array(let actual), .array(let expected)):
            guard ignoreExtraElements ? actual.count >= expected.count : actual.count == expected.count else {
                return false
            }
            if ignoreArrayOrder { return matchesUnordered(actual, expected: expected) }
            // With extra elements allowed, the expected elements must still come first, in order.
            return zip(actual, expected).allSatisfy { matches($0, expected: $1) }
        default:
            return actual == expected
        }
    }

    /// Each expected element claims a distinct actual element that matches it.
    private func matchesUnordered(_ actual: [JSONValue], expected: [JSONValue]) -> Bool {
        var unclaimed = actual
        for element in expected {
            guard let index = unclaimed.firstIndex(where: { matches($0, expected: element) }) else { return false }
            unclaimed.remove(at: index)
        }
        return true
    }
}
