import Decoy
import DecoyTesting
import HTTPTypes
import Testing

@Suite("expectOrder")
struct OrderExpectationTests {
    static let session: [StubRequest] = [
        StubRequest(method: .get, target: "/health"),
        StubRequest(method: .post, target: "/login"),
        StubRequest(method: .get, target: "/orders"),
        StubRequest(method: .get, target: "/me"),
        StubRequest(method: .get, target: "/order"),
        StubRequest(method: .post, target: "/orders"),
    ]

    @Test func passesForASubsequenceWithOthersInBetween() throws {
        let registry = try StubRegistry.having(received: Self.session)
        registry.expectOrder([.post("/login"), .get("/me")])
        registry.expectOrder([.post("/login"), .get("/orders"), .get("/me")])
        registry.expectOrder([.any("/login"), .get("/{any}")])
        registry.expectOrder([])
    }

    @Test func failureSaysWhatCameAndWhatDidNotAfterIt() throws {
        let registry = try StubRegistry.having(received: Self.session)
        let message = """
            Expected requests in this order: POST /login, GET /me, GET /orders.
            Found POST /login as request 2, then GET /me as request 4, but no request matching GET /orders after \
            request 4.
            Earlier requests that match GET /orders: 3.
            Near misses after request 4 (closest first):
              5. GET /order → 404 (unmatched): path segment 1 is "order", the route expects "orders"
              6. POST /orders → 404 (unmatched): the method is POST, the route expects GET
            """
        expectFailure(message) { registry.expectOrder([.post("/login"), .get("/me"), .get("/orders")]) }
    }

    @Test func failureWhenTheFirstNeverCame() throws {
        let registry = try StubRegistry.having(received: Self.session)
        let message = """
            Expected requests in this order: POST /logout, GET /me.
            No request matches POST /logout.
            Near misses (closest 3 of 6):
              2. POST /login → 404 (unmatched): path segment 1 is "login", the route expects "logout"
              6. POST /orders → 404 (unmatched): path segment 1 is "orders", the route expects "logout"
              5. GET /order → 404 (unmatched): path segment 1 is "order", the route expects "logout"; the method is \
            GET, the route expects POST
            """
        expectFailure(message) { registry.expectOrder([.post("/logout"), .get("/me")]) }
    }

    @Test func failureWhenNothingCameAfter() throws {
        let registry = try StubRegistry.having(received: Self.session)
        let message = """
            Expected requests in this order: POST /orders, GET /me.
            Found POST /orders as request 6, but no request matching GET /me after request 6.
            Earlier requests that match GET /me: 4.
            No requests were received after request 6.
            """
        expectFailure(message) { registry.expectOrder([.post("/orders"), .get("/me")]) }
    }

    @Test func failureOnAnEmptyJournal() {
        let message = """
            Expected requests in this order: POST /login, GET /me.
            No request matches POST /login.
            No requests were received.
            """
        expectFailure(message) { StubRegistry().expectOrder([.post("/login"), .get("/me")]) }
    }
}
