import Foundation
import HTTPTypes

/// A route checked and parsed at registration, ready to test requests against.
struct CompiledRoute: Sendable {
    let route: Route
    let pattern: PathPattern
    let matchers: [CompiledMatcher]

    init(_ route: Route) throws(RouteError) {
        self.route = route
        pattern = try PathPattern(parsing: route)
        matchers = try route.matchers.map { matcher throws(RouteError) in try CompiledMatcher(matcher, route: route) }
    }

    /// Why `request`, whose path is already known to fit, is not for this route; `nil` when it is.
    func mismatchBeyondPath(_ request: StubRequest) -> String? {
        if let method = route.method, method != request.method {
            return "the method is \(request.method), the route expects \(method)"
        }
        for matcher in matchers {
            if let reason = matcher.mismatch(in: request) { return reason }
        }
        return nil
    }

    /// Why `request` is not for this route; `nil` when it is.
    func mismatch(_ request: StubRequest, segments: [Substring]) -> String? {
        pattern.difference(path: request.path, segments: segments) ?? mismatchBeyondPath(request)
    }
}

/// A ``RequestMatcher`` with its regular expression, if any, compiled.
struct CompiledMatcher: Sendable {
    let source: RequestMatcher
    private let expression: CompiledExpression?

    init(_ source: RequestMatcher, route: Route) throws(RouteError) {
        self.source = source
        switch source.valueMatcher {
        case .matches(let pattern), .doesNotMatch(let pattern):
            expression = try CompiledExpression(pattern, orThrow: { RouteError(path: route.path, reason: "\(source): \($0)") })
        default:
            expression = nil
        }
    }

    /// Why `request` fails this matcher; `nil` when it passes.
    func mismatch(in request: StubRequest) -> String? {
        let values: [String] = switch source {
        case .query(let name, _): request.queryValues(name)
        case .header(let name, _): request.headerFields[values: name]
        case .body: request.body.isEmpty ? [] : [request.bodyText]
        }
        guard !accepts(values) else { return nil }
        let received = values.isEmpty ? "nothing" : values.map { "\"\($0)\"" }.joined(separator: ", ")
        return "\(source.subject): expected \(source.valueMatcher), got \(received)"
    }

    private func accepts(_ values: [String]) -> Bool {
        switch source.valueMatcher {
        case .present: !values.isEmpty
        case .absent: values.isEmpty
        case .equalTo(let text): values.contains(text)
        case .contains(let text): values.contains { $0.contains(text) }
        case .matches: values.contains { expression!.matchesWhole($0) }
        case .doesNotMatch: !values.contains { expression!.matchesWhole($0) }
        }
    }
}

extension RequestMatcher {
    var valueMatcher: ValueMatcher {
        switch self {
        case .query(_, let matcher), .header(_, let matcher), .body(let matcher): matcher
        }
    }

    /// What the matcher looks at, as messages name it.
    var subject: String {
        switch self {
        case .query(let name, _): "query \"\(name)\""
        case .header(let name, _): "header \"\(name)\""
        case .body: "body"
        }
    }
}
