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
    /// Without `scenarios`, as when searching the journal, scenario states are not checked.
    func mismatchBeyondPath(_ request: StubRequest, scenarios: ScenarioStates? = nil) -> String? {
        if let difference = methodDifference(request) { return difference }
        for matcher in matchers {
            if let reason = matcher.mismatch(in: request) { return reason }
        }
        if let scenarios, let scenario = route.scenario, let required = scenario.requiredState {
            let state = scenarios.state(of: scenario.name)
            if state != required { return "scenario \"\(scenario.name)\" is in state \"\(state)\", the route expects \"\(required)\"" }
        }
        return nil
    }

    /// Why the method of `request` is not the route's; `nil` when it is, or the route takes any.
    func methodDifference(_ request: StubRequest) -> String? {
        guard let method = route.method, method != request.method else { return nil }
        return "the method is \(request.method), the route expects \(method)"
    }

    /// Why `request` is not for this route; `nil` when it is.
    func mismatch(_ request: StubRequest, segments: [Substring], scenarios: ScenarioStates? = nil) -> String? {
        pattern.difference(path: request.path, segments: segments) ?? mismatchBeyondPath(request, scenarios: scenarios)
    }
}

/// A ``RequestMatcher`` compiled once, at registration.
struct CompiledMatcher: Sendable {
    let source: RequestMatcher
    private let matcher: CompiledValueMatcher

    init(_ source: RequestMatcher, route: Route) throws(RouteError) {
        self.source = source
        matcher = try CompiledValueMatcher(source.valueMatcher) { RouteError(path: route.path, reason: "\(source): \($0)") }
    }

    /// Why `request` fails this matcher; `nil` when it passes.
    func mismatch(in request: StubRequest) -> String? {
        let values = source.values(in: request)
        guard !matcher.accepts(values) else { return nil }
        let received = values.isEmpty ? "nothing" : values.map { "\"\($0)\"" }.joined(separator: ", ")
        return "\(source.subject): expected \(source.valueMatcher), got \(received)"
    }
}
