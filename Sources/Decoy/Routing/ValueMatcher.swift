/// A condition on one text value: a query parameter, a header field, a cookie, the body or the target.
///
/// ```swift
/// Route.post("/orders").body(.equalToJSON(#"{"sku": "A-1", "quantity": 2}"#, ignoreExtraElements: true))
/// Route.post("/orders").body(.matchesJSONPath("$.items[*].sku", .equalTo("A-1")))
/// ```
public enum ValueMatcher: Sendable, Hashable {
    /// Equal to the text, optionally ignoring case.
    case equalTo(String, caseInsensitive: Bool = false)
    /// Contains the text.
    case contains(String)
    /// Does not contain the text.
    case doesNotContain(String)
    /// Matches the regular expression as a whole.
    case matches(String)
    /// Does not match the regular expression.
    case doesNotMatch(String)
    /// Present, with any value.
    case present
    /// Not present at all.
    case absent
    /// The same JSON document as the JSON text, whatever its spacing and member order.
    case equalToJSON(String, ignoreArrayOrder: Bool = false, ignoreExtraElements: Bool = false)
    /// A JSON document in which the JSON path selects values satisfying the matcher; by
    /// default, selects any value that is not null.
    indirect case matchesJSONPath(String, ValueMatcher = .present)
    /// An XML document in which the XPath selects nodes whose text satisfies the matcher; by
    /// default, selects anything.
    indirect case matchesXPath(String, ValueMatcher = .present)
    /// Every one of the matchers accepts.
    indirect case and([ValueMatcher])
    /// At least one of the matchers accepts.
    indirect case or([ValueMatcher])
    /// The matcher does not accept.
    indirect case not(ValueMatcher)
}

extension ValueMatcher: CustomStringConvertible {
    /// The matcher as messages show it.
    public var description: String {
        switch self {
        case .equalTo(let text, let caseInsensitive): "equal to \"\(text)\"\(caseInsensitive ? " ignoring case" : "")"
        case .contains(let text): "containing \"\(text)\""
        case .doesNotContain(let text): "not containing \"\(text)\""
        case .matches(let pattern): "matching /\(pattern)/"
        case .doesNotMatch(let pattern): "not matching /\(pattern)/"
        case .present: "present"
        case .absent: "absent"
        case .equalToJSON(let json, let ignoreArrayOrder, let ignoreExtraElements):
            "equal to JSON \(json)" + (ignoreArrayOrder ? " ignoring array order" : "")
                + (ignoreExtraElements ? " ignoring extra elements" : "")
        case .matchesJSONPath(let path, .present): "with JSON path \(path)"
        case .matchesJSONPath(let path, let matcher): "with JSON path \(path) \(matcher)"
        case .matchesXPath(let path, .present): "with XPath \(path)"
        case .matchesXPath(let path, let matcher): "with XPath \(path) \(matcher)"
        case .and(let matchers): matchers.map(\.description).joined(separator: " and ")
        case .or(let matchers): "(" + matchers.map(\.description).joined(separator: " or ") + ")"
        case .not(let matcher): "not (\(matcher))"
        }
    }
}
