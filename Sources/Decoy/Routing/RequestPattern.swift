/// A route compiled once to test requests with, as the journal is searched and verified.
///
/// Unlike a registered route, a pattern ignores scenario states: it asks what a request was,
/// not what answered it.
///
/// ```swift
/// let pattern = try RequestPattern(.post("/users").header(.contentType, .contains("json")))
/// let posts = registry.journal.entries(matching: pattern)
/// ```
public struct RequestPattern: Sendable, CustomStringConvertible {
    let compiled: CompiledRoute

    /// The route the pattern tests.
    public var route: Route { compiled.route }

    /// Compiles `route`; throws when one of its regular expressions or JSON paths is invalid.
    public init(_ route: Route) throws(RouteError) {
        compiled = try CompiledRoute(route)
    }

    package init(compiled: CompiledRoute) {
        self.compiled = compiled
    }

    /// Whether `request` fits the pattern.
    public func matches(_ request: StubRequest) -> Bool {
        compiled.differences(request, segments: request.pathSegments).isEmpty
    }

    /// Every way `request` differs from the pattern, in words: each path segment that differs and
    /// the number of segments, the method, then each matcher that fails. Empty when it fits; the
    /// fewer, the nearer the miss.
    public func differences(from request: StubRequest) -> [String] {
        compiled.differences(request, segments: request.pathSegments).map { $0.words(for: request) }
    }

    /// The route, as messages show it.
    public var description: String { route.description }
}
