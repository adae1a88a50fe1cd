import Decoy
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// The unmatched 404's closest routes: a one-letter typo lists its route first, whatever kind of
/// route it is and however many others there are, and finding them stays bounded.
@Suite("Routing: closest routes")
struct NearRouteTests {
    /// The closest routes the 404 for `target` lists, one line each.
    private static func closest(_ registry: StubRegistry, _ target: String, method: HTTPRequest.Method = .get)
        async throws -> [String]
    {
        let text = try await ServingMode.inProcess.exchange(registry, method, target).text
        return text.split(separator: "\n").filter { $0.hasPrefix("  - ") }.map { String($0.dropFirst(4)) }
    }

    @Test func theExampleFolderListsTheTypoRouteFirst() async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.examples)
        #expect(
            try await Self.closest(registry, "/user/42").first
                == #"GET /users/{id}: path segment 1 is "user", the route expects "users""#)
        // A regular expression is a candidate too, met at the plain segments it starts with.
        #expect(
            try await Self.closest(registry, "/orders/abc", method: .delete).first
                == "DELETE ~/orders/[0-9]+: the path does not match //orders/[0-9]+/")
        #expect(
            try await Self.closest(registry, "/recomendations").first
                == #"GET /recommendations: path segment 1 is "recomendations", the route expects "recommendations""#)
    }

    /// A regular expression leaves the walk with its route, and a literal child its typo index.
    @Test func aRemovedRouteIsNoLongerClosest() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/health"))
        let expression = try registry.register(StubResponse(), for: .get(matching: #"/reports/\d{4}"#))
        let literal = try registry.register(StubResponse(), for: .get("/recommendations"))
        #expect(try await Self.closest(registry, "/reports/20x6").first?.hasPrefix(#"GET ~/reports/\d{4}:"#) == true)
        #expect(try await Self.closest(registry, "/recomendations").first?.hasPrefix("GET /recommendations:") == true)
        registry.remove(expression)
        registry.remove(literal)
        #expect(
            try await Self.closest(registry, "/reports/20x6") == [
                #"""
                GET /health: path segment 1 is "reports", the route expects "health"; the route expects 1 path \#
                segments, the request has 2
                """#
            ])
        #expect(
            try await Self.closest(registry, "/recomendations") == [
                #"GET /health: path segment 1 is "recomendations", the route expects "health""#
            ])
    }

    /// 10,000 routes of every kind straight under the root, so that the walk cannot try every
    /// sibling, and one route of each kind registered last, the worst place for a tie.
    private static func crowded(plus targets: [Route]) throws -> StubRegistry {
        let registry = StubRegistry()
        for index in 0..<10_000 {
            let name = "part\(index)"
            let route: Route =
                switch index % 5 {
                case 0: .get("/\(name)/{id}")
                case 1: .get("/\(name)")
                case 2: .get("/\(name)/*/items")
                case 3: .get("/\(name)/**")
                default: .get(matching: #"/\#(name)/\d+"#)
                }
            try registry.register(StubResponse(), for: route)
        }
        for target in targets { try registry.register(StubResponse(), for: target) }
        return registry
    }

    @Test func aTypoListsItsRouteFirstAmongTenThousand() async throws {
        let targets: [(route: Route, typo: String)] = [
            (.get("/accounts/{id}/settings"), "/accounts/7/setings"),
            (.get("/catalog/*/items"), "/catalg/3/items"),
            (.get("/static/**"), "/statc/css/site.css"),
            (.get(matching: #"/reports/\d{4}"#), "/reprts/2024"),
            (Route(method: .get, path: "/orders/export", pathSyntax: .exact), "/orders/exprt"),
            (.get("/users/{id}"), "/user/42"),
        ]
        let registry = try Self.crowded(plus: targets.map(\.route))
        for (route, typo) in targets {
            let closest = try await Self.closest(registry, typo)
            #expect(closest.first?.hasPrefix(route.description + ":") == true, "\(typo): \(closest)")
        }
    }

    /// The cost of an unmatched request's closest routes does not grow with the routes: the walk
    /// is bounded, not a scan. Measured on template, wildcard, `**` and literal routes: every
    /// regular expression is tried on every request anyway, to match it.
    @Test func findingTheClosestRoutesIsBounded() throws {
        func registry(_ count: Int) throws -> StubRegistry {
            let registry = StubRegistry()
            for index in 0..<count {
                let name = "part\(index)"
                let path = ["/\(name)/{id}", "/\(name)", "/\(name)/*/items", "/\(name)/**"][index % 4]
                try registry.register(StubResponse(), for: .get(path))
            }
            try registry.register(StubResponse(), for: .get("/users/{id}"))
            return registry
        }
        // Distinct targets, so that no 404 is kept for a repeated one.
        let requests = (0..<1_000).map { StubRequest(method: .get, target: "/user/\($0)") }
        /// The time `registry` takes per request, for one pass over them all.
        func costPerRequest(_ registry: StubRegistry) -> Duration {
            let started = ContinuousClock.now
            for request in requests {
                guard case .unmatched(let unmatched) = registry.lookup(request), !unmatched.nearMisses.isEmpty else {
                    Issue.record("\(request.target) matched or had no closest route")
                    return .zero
                }
            }
            return (ContinuousClock.now - started) / requests.count
        }
        // The best of five passes each, taken in turns, so that a busy moment slows both alike.
        let (fewRoutes, manyRoutes) = (try registry(100), try registry(10_000))
        var (few, many) = (Duration.seconds(1_000), Duration.seconds(1_000))
        for _ in 0..<5 {
            few = min(few, costPerRequest(fewRoutes))
            many = min(many, costPerRequest(manyRoutes))
        }
        func microseconds(_ duration: Duration) -> String {
            String(
                format: "%.1f µs",
                Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12)
        }
        print(
            "The closest routes of an unmatched request: \(microseconds(few)) among 100 routes, "
                + "\(microseconds(many)) among 10,000")
        #expect(many < few * 4, "\(few) among 100 routes, \(many) among 10,000")
    }
}
