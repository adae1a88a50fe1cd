import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import HTTPTypes
import Testing

@Suite("expect and expectNoRequests")
struct CountExpectationTests {
    static let mixed: [StubRequest] = [
        StubRequest(method: .get, target: "/users/7"),
        StubRequest(method: .post, target: "/user"),
        StubRequest(method: .put, target: "/users"),
        StubRequest(method: .get, target: "/orders"),
        StubRequest(method: .post, target: "/users/7"),
    ]

    @Test func passesForEachKindOfCount() throws {
        let registry = try StubRegistry.having(received: [
            StubRequest(method: .post, target: "/users"), StubRequest(method: .post, target: "/users"),
        ])
        #expect(registry.expect(.post("/users"), count: .exactly(2)).map(\.sequence) == [1, 2])
        registry.expect(.post("/users"), count: .atLeast(2))
        registry.expect(.post("/users"), count: .atMost(2))
        registry.expect(.post("/users"))
        registry.expect(.delete("/users/{id}"), count: .never)
        registry.expectNoRequests(to: .get("/users/{id}"))
    }

    /// docs/testing.md shows this failure.
    @Test func tooFewShowsTheNearestMissesAndWhatDiffered() throws {
        let registry = try StubRegistry.having(received: Self.mixed)
        let message = """
            Expected exactly 1 request matching POST /users, but received 0.
            Near misses (closest 3 of 5):
              2. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users"
              3. PUT /users → 404 (unmatched): the method is PUT, the route expects POST
              5. POST /users/7 → 404 (unmatched): the route expects 1 path segments, the request has 2
            """
        expectFailure(message) { registry.expect(.post("/users"), count: .once) }
    }

    @Test func nearMissesListEveryPartThatDiffered() throws {
        let registry = try StubRegistry.having(received: [StubRequest(method: .put, target: "/users?notify=yes")])
        let route = Route.post("/users").query("notify", .equalTo("no")).header(.contentType, .contains("json"))
        let message = """
            Expected at least 1 request matching POST /users where query "notify" equal to "no", header "Content-Type" \
            containing "json", but received 0.
            Near misses (closest first):
              1. PUT /users?notify=yes → 404 (unmatched): the method is PUT, the route expects POST; query "notify": \
            expected equal to "no", got "yes"; header "Content-Type": expected containing "json", got nothing
            """
        expectFailure(message) { registry.expect(route) }
    }

    @Test func tooManyListsTheMatchingRequests() throws {
        let registry = try StubRegistry.having(
            received: [StubRequest(method: .post, target: "/users")] + Self.mixed + [
                StubRequest(method: .post, target: "/users")
            ])
        let message = """
            Expected at most 1 request matching POST /users, but received 2.
            Matching requests:
              1. POST /users → 201
              7. POST /users → 201
            """
        expectFailure(message) { registry.expect(.post("/users"), count: .atMost(1)) }
    }

    @Test func tooFewWhenEveryRequestMatchedSaysSo() throws {
        let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/users")])
        let message = """
            Expected exactly 2 requests matching POST /users, but received 1.
            No other requests were received.
            """
        expectFailure(message) { registry.expect(.post("/users"), count: .exactly(2)) }
    }

    @Test func noRequestsToARouteListsThoseThatCame() throws {
        let registry = try StubRegistry.having(
            received: Self.mixed + [StubRequest(method: .delete, target: "/users/7")])
        let message = """
            Expected no requests matching DELETE /users/{id}, but received 1.
            Matching requests:
              6. DELETE /users/7 → 404 (unmatched)
            """
        expectFailure(message) { registry.expectNoRequests(to: .delete("/users/{id}")) }
    }

    @Test func noRequestsAtAllListsAFewAndCountsTheRest() throws {
        let registry = try StubRegistry.having(received: Self.mixed + Self.mixed)
        StubRegistry().expectNoRequests()
        let message = """
            Expected no requests, but received 10:
              1. GET /users/7 → 200
              2. POST /user → 404 (unmatched)
              3. PUT /users → 404 (unmatched)
              4. GET /orders → 404 (unmatched)
              5. POST /users/7 → 404 (unmatched)
              … and 5 more
            """
        expectFailure(message) { registry.expectNoRequests() }
    }

    @Test func saysWhenTheJournalDroppedRequests() throws {
        let registry = try StubRegistry.having(
            received: [StubRequest(method: .post, target: "/users")] + Self.mixed.prefix(2), journalLimit: 2)
        let message = """
            Expected at least 1 request matching POST /users, but received 0.
            Near misses (closest first):
              3. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users"
              2. GET /users/7 → 200: the route expects 1 path segments, the request has 2; the method is GET, the \
            route expects POST
            The journal keeps the last 2 of 3 requests received.
            """
        expectFailure(message) { registry.expect(.post("/users")) }
    }

    @Test func anInvalidRouteIsReportedNotThrown() throws {
        let registry = try StubRegistry.having(received: [])
        let message =
            #"Cannot check requests against GET ~(: invalid route path "(": "(" is not a valid regular expression"#
        expectFailure(message) { registry.expect(.get(matching: "(")) }
    }

    @Test func journalsEnginesAndServersAnswerTheSameAssertions() async throws {
        let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/users")])
        registry.journal.expect(.post("/users"), count: .once)
        registry.engine.expect(.post("/users"), count: .once)
        let server = MockServer(registry: registry)
        server.expect(.post("/users"), count: .once)
        let message =
            "Expected no requests matching POST /users, but received 1.\nMatching requests:\n  1. POST /users → 201"
        expectFailure(message) { server.expectNoRequests(to: .post("/users")) }
    }
}
