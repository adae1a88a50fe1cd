/// Finds the stub that answers a request.
///
/// ``StubRegistry`` is the provider most tests use; conform your own type to serve stubs from
/// somewhere else. A provider only matches: journaling, delays and faults are the engine's.
///
/// ```swift
/// struct Maintenance: StubProvider {
///     func stub(for request: StubRequest) -> (any Stub)? {
///         StubResponse(status: .serviceUnavailable, text: "down for maintenance")
///     }
/// }
/// let server = MockServer(provider: Maintenance())
/// ```
public protocol StubProvider: Sendable {
    /// The stub for `request`, or `nil` when none fits, which is answered `404`. Called for every
    /// request, on any thread: keep it quick.
    func stub(for request: StubRequest) -> (any Stub)?
}

/// The outcome of matching a request.
package enum StubLookup: Sendable {
    /// A stub answers the request.
    case matched(StubMatch)
    /// Nothing answers it: the closest routes, best first, and the 404 that names them.
    case unmatched(Unmatched)
}

/// A stub chosen for a request, with the route it was registered for.
package struct StubMatch: Sendable {
    /// The stub that answers.
    package let stub: any Stub
    /// The route the stub was registered for; `nil` for providers without routes.
    package let route: Route?

    /// Creates a match.
    package init(stub: any Stub, route: Route?) {
        self.stub = stub
        self.route = route
    }
}

/// A route that almost matched a request, and every way it did not.
package struct NearMiss: Sendable, Hashable, CustomStringConvertible {
    /// The route that missed.
    package let route: Route
    /// Why it missed, kept as found: the unmatched 404 words it straight into its body, and most
    /// unmatched requests are never asked for their near misses in any other words.
    private let why: Why

    private enum Why: Sendable {
        case words(String)
        case differences([RouteDifference], StubRequest)
    }

    /// Why it missed, in words: every difference, separated by `; `.
    package var reason: String {
        if case .words(let words) = why { return words }
        var text: [UInt8] = []
        appendReason(to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Creates a near miss.
    package init(route: Route, reason: String) {
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
    package static func == (lhs: NearMiss, rhs: NearMiss) -> Bool {
        lhs.route == rhs.route && lhs.reason == rhs.reason
    }

    /// Hashes the route and the reason, as ``==(_:_:)`` compares them.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(route)
        hasher.combine(reason)
    }

    /// `route: reason`.
    package var description: String { "\(route): \(reason)" }
}
