/// A route checked and compiled once to test requests with: as the registry matches requests to
/// its stubs, and as the journal is searched and verified.
///
/// Searching the journal, a pattern ignores scenario states: it asks what a request was, not
/// what answered it.
///
/// ```swift
/// let pattern = try RequestPattern(.post("/users").header(.contentType, .contains("json")))
/// let posts = registry.journal.entries(matching: pattern)
/// ```
public struct RequestPattern: Sendable, CustomStringConvertible {
    /// The route the pattern tests.
    public let route: Route
    let path: PathPattern
    let matchers: [CompiledMatcher]

    /// Compiles `route`; throws when one of its regular expressions or JSON paths is invalid.
    public init(_ route: Route) throws(DecoyError) {
        self.route = route
        path = try PathPattern(parsing: route)
        matchers = try route.matchers.map { matcher throws(DecoyError) in try CompiledMatcher(matcher, route: route) }
    }

    /// Whether `request` fits the pattern.
    public func matches(_ request: StubRequest) -> Bool {
        differences(request, segments: request.pathSegments).isEmpty
    }

    /// Every way `request` differs from the pattern, in words: each path segment that differs and
    /// the number of segments, the method, then each matcher that fails. Empty when it fits; the
    /// fewer, the nearer the miss.
    public func differences(from request: StubRequest) -> [String] {
        differences(request, segments: request.pathSegments).map { $0.words(for: request) }
    }

    /// The route, as messages show it.
    public var description: String { route.description }
}
