import Decoy
import Foundation
import HTTPTypes

extension StubRegistry {
    /// A registry that answers `GET /users/{id}` and `POST /users`, and has received `requests`.
    static func having(received requests: [StubRequest], journalLimit: Int = 10_000) throws -> StubRegistry {
        let registry = StubRegistry(journalLimit: journalLimit)
        try registry.register(StubResponse(json: #"{"id": 7, "name": "Ada"}"#), for: .get("/users/{id}"))
        try registry.register(StubResponse(status: .created), for: .post("/users"))
        for request in requests {
            _ = registry.engine.prepare(request)
        }
        return registry
    }
}

extension StubRequest {
    /// A request with a JSON body, as a client sends one.
    static func json(_ method: HTTPRequest.Method, _ target: String, _ body: String) -> StubRequest {
        StubRequest(
            method: method, target: target, headerFields: [.contentType: "application/json"], body: Data(body.utf8))
    }
}
