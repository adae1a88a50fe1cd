import Decoy

/// A route read from a stub file, with the node each part came from, so that a part the route
/// compiler refuses is reported where it is written.
struct DecodedRoute {
    var route: Route
    /// The node of the `url…` field; `nil` when the stub matches any path.
    var pathNode: FileNode?
    /// The node of each of the route's matchers, in the same order.
    var matcherNodes: [FileNode]

    /// The route compiled; `nil` after logging each part that does not compile.
    func compiled() -> RequestPattern? {
        if let compiled = try? RequestPattern(route) { return compiled }
        // Only a failed compilation pays for finding which parts failed.
        do { try route.validatePath() } catch { pathNode?.error(error.reason) }
        Self.logInvalid(zip(route.matchers, matcherNodes))
        return nil
    }

    /// Logs, at its node, each matcher that does not compile.
    static func logInvalid(_ matchers: some Sequence<(RequestMatcher, FileNode)>) {
        for (matcher, node) in matchers {
            do {
                try matcher.valueMatcher.validate()
            } catch {
                node.error(error.reason)
            }
        }
    }
}
