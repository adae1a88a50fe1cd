public import HTTPTypes

/// One condition on a request beyond its method and path.
public enum RequestMatcher: Sendable, Hashable {
    /// The query parameter with this name (any of its values) satisfies the matcher.
    case query(String, ValueMatcher)
    /// The header field with this name (any of its values) satisfies the matcher.
    case header(HTTPField.Name, ValueMatcher)
    /// The body, as UTF-8 text, satisfies the matcher.
    case body(ValueMatcher)
}

extension RequestMatcher: CustomStringConvertible {
    /// The matcher as messages show it, such as `query "page" equal to "2"`.
    public var description: String {
        switch self {
        case .query(let name, let matcher): "query \"\(name)\" \(matcher)"
        case .header(let name, let matcher): "header \"\(name)\" \(matcher)"
        case .body(let matcher): "body \(matcher)"
        }
    }
}

/// A condition on one text value: a query parameter, a header field or the body.
public enum ValueMatcher: Sendable, Hashable {
    /// Equal to the text.
    case equalTo(String)
    /// Contains the text.
    case contains(String)
    /// Matches the regular expression as a whole.
    case matches(String)
    /// Does not match the regular expression.
    case doesNotMatch(String)
    /// Present, with any value.
    case present
    /// Not present at all.
    case absent
}

extension ValueMatcher: CustomStringConvertible {
    /// The matcher as messages show it.
    public var description: String {
        switch self {
        case .equalTo(let text): "equal to \"\(text)\""
        case .contains(let text): "containing \"\(text)\""
        case .matches(let pattern): "matching /\(pattern)/"
        case .doesNotMatch(let pattern): "not matching /\(pattern)/"
        case .present: "present"
        case .absent: "absent"
        }
    }
}
