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
    /// Why it missed, kept as found: the unmatched 404 words it straight into its body, and most
    /// unmatched requests are never asked for their near misses in any other words.
    private let why: Why

    private enum Why: Sendable {
        case words(String)
        case differences([RouteDifference], StubRequest)
    }

    /// Why it missed, in words: every difference, separated by `; `.
    public var reason: String {
        if case .words(let words) = why { return words }
        var text: [UInt8] = []
        appendReason(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Creates a near miss.
    public init(route: Route, reason: String) {
        self.route = route
        why = .words(reason)
    }

    /// A near miss of `request`, worded only when asked.
    init(route: Route, differences: [RouteDifference], of request: StubRequest) {
        self.route = route
        why = .differences(differences, request)
    }

    /// Appends ``reason`` to `text`, as UTF-8.
    func appendReason(to text: inout [UInt8]) {
        switch why {
        case .words(let words):
            text.append(utf8: words)
        case .differences(let differences, let request):
            for (index, difference) in differences.enumerated() {
                if index > 0 { text.append(utf8: "; ") }
                difference.appendWords(for: request, to: &text)
            }
        }
    }

    /// About how many bytes ``reason`` takes, to make room for it once.
    var reasonCapacity: Int {
        switch why {
        case .words(let words): words.utf8.count
        case .differences(let differences, let request):
            differences.count * (64 + request.target.utf8.count + route.path.utf8.count)
        }
    }

    /// Near misses are equal when their routes and reasons are, however each was made.
    public static func == (lhs: NearMiss, rhs: NearMiss) -> Bool {
        lhs.route == rhs.route && lhs.reason == rhs.reason
    }

    /// Hashes the route and the reason, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(route)
        hasher.combine(reason)
    }

    /// `route: reason`.
    public var description: String { "\(route): \(reason)" }
}
