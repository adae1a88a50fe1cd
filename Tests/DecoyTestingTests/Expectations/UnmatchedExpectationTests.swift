import Decoy
import DecoyTesting
import HTTPTypes
import Testing

@Suite("expectNoUnmatchedRequests")
struct UnmatchedExpectationTests {
    @Test func passesWhenEveryRequestMatched() throws {
        try StubRegistry.having(received: [
            StubRequest(method: .get, target: "/users/1"), StubRequest(method: .post, target: "/users"),
        ])
        .expectNoUnmatchedRequests()
        StubRegistry().expectNoUnmatchedRequests()
    }

    @Test func listsTheRequestsNoStubMatched() throws {
        let registry = try StubRegistry.having(received: [
            StubRequest(method: .get, target: "/users/1"),
            StubRequest(method: .get, target: "/user/1"),
            StubRequest(method: .delete, target: "/users/1"),
        ])
        let message = """
            Expected every request to match a stub, but 2 of 3 did not:
              2. GET /user/1 → 404 (unmatched)
              3. DELETE /users/1 → 404 (unmatched)
            """
        expectFailure(message) { registry.expectNoUnmatchedRequests() }
    }
}
