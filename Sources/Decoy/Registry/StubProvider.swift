/// Finds the stub that answers a request.
///
/// ``StubRegistry`` is the provider most tests use; conform your own type to serve stubs from
/// somewhere else. A provider only matches: journaling, delays and faults are the engine's.
public protocol StubProvider: Sendable {
    /// The stub for `request`, or why none fits. Called for every request, on any thread: keep it quick.
    func lookup(_ request: StubRequest) -> StubLookup
}

/// The outcome of matching a request.
public enum StubLookup: Sendable {
    /// A stub answers the request.
    case matched(StubMatch)
    /// Nothing answers it; the closest routes and why each missed, best first.
    case unmatched([NearMiss])
}

/// A stub chosen for a request, with the route it was registered for.
public struct StubMatch: Sendable {
    /// The stub that answers.
    public let stub: any Stub
    /// The route the stub was registered for; `nil` for providers without routes.
    public let route: Route?

    /// Creates a match.
    public init(stub: any Stub, route: Route?) {
        self.stub = stub
        self.route = route
    }
}

/// A route that almost matched a request, and every way it did not.
public struct NearMiss: Sendable, Hashable, CustomStringConvertible {
    /// The route that missed.
    public let route: Route
    /// Why it missed, in words: every difference, separated by `; `.
    public let reason: String

    /// Creates a near miss.
    public init(route: Route, reason: String) {
        self.route = route
        self.reason = reason
    }

    /// `route: reason`.
    public var description: String { "\(route): \(reason)" }
}
