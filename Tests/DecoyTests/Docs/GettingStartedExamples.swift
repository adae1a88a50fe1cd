// swift-format-ignore-file
// The examples of docs/getting-started.md, verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyClient
import Foundation
import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

extension Resource where Value == User {
    static func user(id: Int) -> Resource { .get("/users/\(id)") }
}

/// Compiled, never run: it would reach the real API.
func appSendsAUser() async throws -> User {
    let client = APIClient(baseURL: URL(string: "https://api.example.com")!)
    let user = try await client.send(.user(id: 42))
    return user
}

@Suite("Getting started, as documented")
struct GettingStartedExamples {
    @Test func loadsAUser() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))

        let user = try await client.send(.user(id: 42))

        #expect(user == User(id: 42, name: "Ada"))
        try registry.verify(.get("/users/42"), count: .once)
    }

    @Test func registersForAResource() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 7, "name": "Grace"}"#), for: Resource<User>.user(id: 7))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        #expect(try await client.send(.user(id: 7)).name == "Grace")
    }

    @Test func headerFieldsOnAStub() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created, headerFields: [.location: "/users/7", HTTPField.Name("X-Request-Id")!: "r-1"],
                                           json: #"{"id": 7, "name": "Grace"}"#), for: .post("/users"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        let created = try await client.response(for: Resource<User>.post("/users", body: User(id: 7, name: "Grace")))
        #expect(created.headerFields[.location] == "/users/7")
        #expect(created.headerFields[HTTPField.Name("X-Request-Id")!] == "r-1")
    }

    @Test func stubbedURLSession() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        let session = URLSession.stubbed(by: registry)
        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/users/42")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id": 42, "name": "Ada"}"#)
    }

    @Test func stubsThatChange() async throws {
        let registry = StubRegistry()
        // Each call the next, round-robin.
        try registry.register(AlternatingStub([StubResponse(status: .ok), StubResponse(status: .serviceUnavailable)]), for: .get("/status"))
        // Fail twice, then succeed: for retry tests.
        try registry.register(SequenceStub(first: [StubResponse.fault(.connectionReset), StubResponse(status: .badGateway)],
                                           then: StubResponse(json: "[]")), for: .get("/orders"))
        // Random, but the same seed gives the same picks.
        try registry.register(RandomStub([StubResponse(status: .ok), StubResponse(status: .tooManyRequests)], seed: 7), for: .get("/feed"))
        // By app state, or by anything in the request.
        try registry.register(ConditionalStub(when: { $0.headerFields[.authorization] != nil },
                                              then: StubResponse(json: #"{"id": 1, "name": "Me"}"#),
                                              else: StubResponse(status: .unauthorized)), for: .get("/me"))
        // Anything else: an async closure that sees the whole request.
        try registry.register(ClosureStub { request in
            let user = try request.decodeBody(as: User.self)
            return try StubResponse(status: .created, encoding: user)
        }, for: .post("/users"))

        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        #expect(try await client.response(for: Resource<Void>.get("/status")).status == .ok)
        await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("/status")) }
        await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("/me")) }
        #expect(try await client.send(Resource<User>.post("/users", body: User(id: 5, name: "New"))) == User(id: 5, name: "New"))
    }

    @Test func unmatchedExplainsItself() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/users/{id}"))
        let answer = try await registry.engine.answer(StubRequest(method: .get, target: "/user/42"))
        let documented = """
            No stub matches GET /user/42.
            Closest routes:
              - GET /users/{id}: path segment 1 is "user", the route expects "users"

            """
        #expect(String(decoding: answer.body, as: UTF8.self) == documented)
    }
}

/// In the interception suite, which runs its tests one at a time: the interception is global.
extension SharedSessionInterceptionTests {
    @Test func documentedInterception() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        try await withSharedSessionIntercepted(by: registry) {
            let (data, _) = try await URLSession.shared.data(from: URL(string: "https://api.example.com/users/42")!)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id": 42, "name": "Ada"}"#)
        }
        #expect(registry.journal.totalCount == 1)
    }
}
