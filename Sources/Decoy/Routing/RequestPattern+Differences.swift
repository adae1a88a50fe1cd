import Foundation
import HTTPTypes

extension RequestPattern {
    /// The first way `request`, whose path is already known to fit, differs from this route;
    /// `nil` when it is for this route. Without `scenarios`, as when searching the journal,
    /// scenario states are not checked.
    func mismatchBeyondPath(_ request: StubRequest, scenarios: ScenarioStates? = nil) -> RouteDifference? {
        differencesBeyondPath(request, scenarios: scenarios).first
    }

    /// Every way `request` differs from this route beyond its path: the method, each matcher, the scenario state.
    func differencesBeyondPath(_ request: StubRequest, scenarios: ScenarioStates? = nil) -> [RouteDifference] {
        var differences: [RouteDifference] = []
        appendDifferencesBeyondPath(request, scenarios: scenarios, to: &differences)
        return differences
    }

    private func appendDifferencesBeyondPath(
        _ request: StubRequest, scenarios: ScenarioStates?, to differences: inout some DifferenceSink
    ) {
        if let method = route.method, method != request.method {
            differences.add(.method(received: request.method, expected: method))
        }
        for matcher in matchers where !matcher.accepts(request) { differences.add(.matcher(matcher)) }
        if let scenarios, let scenario = route.scenario, let required = scenario.requiredState {
            let state = scenarios.state(of: scenario.name)
            if state != required { differences.add(.scenario(name: scenario.name, state: state, required: required)) }
        }
    }

    /// Every way `request`, split into `segments`, differs from this route; empty when it is for this route.
    func differences(_ request: StubRequest, segments: [Substring], scenarios: ScenarioStates? = nil)
        -> [RouteDifference]
    {
        // Into one array, made once as large as it can get: ranking near misses makes this for
        // every candidate, and growing it one difference at a time costs more than finding them.
        var differences: [RouteDifference] = []
        differences.reserveCapacity(segments.count + matchers.count + 3)
        path.appendDifferences(path: request.path, segments: segments, to: &differences)
        appendDifferencesBeyondPath(request, scenarios: scenarios, to: &differences)
        return differences
    }

    /// How far `request`, split into `segments`, is from this route: the ``Closeness/Distance`` of
    /// ``differences(_:segments:scenarios:)``, found without keeping them, to rank near misses.
    func distance(_ request: StubRequest, segments: [Substring], scenarios: ScenarioStates? = nil)
        -> Closeness.Distance
    {
        var distance = Closeness.Distance()
        path.appendDifferences(path: request.path, segments: segments, to: &distance)
        appendDifferencesBeyondPath(request, scenarios: scenarios, to: &distance)
        return distance
    }
}

/// A ``RequestMatcher`` compiled once, at registration.
struct CompiledMatcher: Sendable {
    let source: RequestMatcher
    private let matcher: CompiledValueMatcher
    /// The target a stub file's `url` requires, which every recorded stub has: compared as it is,
    /// without gathering the request's target into a list of values and walking the matcher
    /// (Pays: `scripts/benchmarks recording`, replaying recorded stubs).
    private let exactTarget: String?

    init(_ source: RequestMatcher, route: Route) throws(DecoyError) {
        self.source = source
        matcher = try CompiledValueMatcher(source.valueMatcher) {
            DecoyError.invalidRoute(path: route.path, reason: "\(source): \($0)")
        }
        exactTarget = if case .target(.equalTo(let text, caseInsensitive: false)) = source { text } else { nil }
    }

    /// Whether `request` passes this matcher.
    func accepts(_ request: StubRequest) -> Bool {
        if let exactTarget { return request.target == exactTarget }
        return matcher.accepts(source.values(in: request))
    }

    /// Why `request` fails this matcher; `nil` when it passes.
    func mismatch(in request: StubRequest) -> String? {
        let values = source.values(in: request)
        guard !matcher.accepts(values) else { return nil }
        let received = values.isEmpty ? "nothing" : values.map { "\"\($0)\"" }.joined(separator: ", ")
        return "\(source.subject): expected \(source.valueMatcher), got \(received)"
    }
}
