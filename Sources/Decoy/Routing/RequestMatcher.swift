public import HTTPTypes

/// One condition on a request beyond its method and path.
public enum RequestMatcher: Sendable, Hashable {
    /// The query parameter with this name (any of its values) satisfies the matcher.
    case query(String, ValueMatcher)
    /// The header field with this name, whatever its case (any of its values), satisfies the matcher.
    case header(HTTPField.Name, ValueMatcher)
    /// The cookie with this name, from the `Cookie` header fields, satisfies the matcher.
    case cookie(String, ValueMatcher)
    /// The body, as UTF-8 text, satisfies the matcher.
    case body(ValueMatcher)
    /// The parameter with this name (any of its values) of a form body,
    /// `application/x-www-form-urlencoded`, satisfies the matcher; WireMock's `formParameters`.
    case formParameter(String, ValueMatcher)
    /// The request target as sent, path and query, satisfies the matcher; WireMock's `url` and `urlPattern`.
    case target(ValueMatcher)
}

extension RequestMatcher: CustomStringConvertible {
    /// The matcher as messages show it, such as `query "page" equal to "2"`.
    public var description: String { "\(subject) \(valueMatcher)" }
}

extension RequestMatcher {
    package var valueMatcher: ValueMatcher {
        switch self {
        case .query(_, let matcher), .header(_, let matcher), .cookie(_, let matcher), .body(let matcher),
            .formParameter(_, let matcher),
            .target(let matcher):
            matcher
        }
    }

    /// What the matcher looks at, as messages name it.
    var subject: String {
        switch self {
        case .query(let name, _): "query \"\(name)\""
        case .header(let name, _): "header \"\(name)\""
        case .cookie(let name, _): "cookie \"\(name)\""
        case .body: "body"
        case .formParameter(let name, _): "form parameter \"\(name)\""
        case .target: "target"
        }
    }

    /// The values the matcher tests in `request`; none when the part is missing.
    func values(in request: StubRequest) -> [String] {
        switch self {
        case .query(let name, _): request.queryValues(name)
        case .header(let name, _): request.headerFields[values: name]
        case .cookie(let name, _): request.cookieValues(name)
        case .body: request.body.isEmpty ? [] : [request.bodyText]
        case .formParameter(let name, _): request.formValues(name)
        case .target: [request.target]
        }
    }
}
