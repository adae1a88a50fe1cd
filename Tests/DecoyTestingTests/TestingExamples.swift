// swift-format-ignore-file
// The examples of docs/testing.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import Testing
import XCTest
import HTTPTypes

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

struct NewUser: Codable, Sendable, Equatable {
    let name: String
}

extension Resource where Value == User {
    static func user(id: Int) -> Resource { .get("/users/\(id)") }
    static func signUp(name: String) -> Resource { .post("/users", body: NewUser(name: name)) }
}

struct Order: Codable, Sendable, Equatable {
    let sku: String
}

func makeAPIClient(environment: [String: String] = ProcessInfo.processInfo.environment) -> APIClient {
    let baseURL = environment["API_BASE_URL"].flatMap { URL(string: $0) } ?? URL(string: "https://api.example.com")!
    return APIClient(baseURL: baseURL)
}

@Suite("Testing, as documented")
struct TestingExamples {
    @Test func signsUp() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created, json: #"{"id": 7, "name": "Ada"}"#), for: .post("/users"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))

        let user = try await client.send(.signUp(name: "Ada"))

        #expect(user == User(id: 7, name: "Ada"))
        registry.expect(.post("/users"), count: .once)
        #expect(registry.expectBody(of: .post("/users"), as: NewUser.self) == NewUser(name: "Ada"))
    }

    @Test func verifiesCalls() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .post("/login"))
        try registry.register(StubResponse(json: #"{"id": 1, "name": "Me"}"#), for: .get("/me"))
        try registry.register(StubResponse(json: #"{"id": 1, "name": "Me"}"#), for: .get("/users/{id}"))
        try registry.register(StubResponse(status: .created), for: .post("/orders"))
        try registry.register(StubResponse(json: "[]"), for: .get("/feed"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        try await client.send(Resource<Void>.post("/login"))
        _ = try await client.send(Resource<User>.get("/me"))
        _ = try await client.send(.user(id: 1))
        try await client.send(Resource<Void>.post("/orders", body: Order(sku: "A-1")))
        try await client.send(Resource<Void>.post("/orders", body: Order(sku: "B-2")))
        try await client.send(Resource<Void>.get("/feed"))

        registry.expect(.get("/users/{id}"))                        // at least one
        registry.expect(.post("/orders"), count: .exactly(2))
        registry.expect(.get("/feed"), count: .atMost(3))
        registry.expectNoRequests(to: .delete("/account"))
        registry.expectOrder([.post("/login"), .get("/me"), .post("/orders")])
        let orders = registry.expectBodies(of: .post("/orders"), as: Order.self, count: .exactly(2))
        registry.expectNoUnmatchedRequests()

        #expect(orders == [Order(sku: "A-1"), Order(sku: "B-2")])
    }

    @Test(arguments: ServingMode.allCases)
    func loadsAUser(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))

        try await withStubbedClient(mode, registry: registry) { client, _ in
            let user = try await client.send(.user(id: 42))
            #expect(user == User(id: 42, name: "Ada"))
        }

        registry.expect(.get("/users/42"), count: .once)
    }

    @Test(arguments: ServingMode.allCases)
    func findsOnlyKnownUsers(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .notFound), for: .get("/users/{id}"))
        try registry.register(StubResponse(json: #"{"id": 7, "name": "Grace"}"#), for: .get("/users/7"))

        try await withStubbedClient(mode, registry: registry, configuration: .init(timeout: .seconds(5))) { client, _ in
            do throws(APIError) {
                _ = try await client.send(.user(id: 42))
            } catch .unacceptableStatus(let failure) {
                #expect(failure.status == .notFound)
            }
        }
        try await withStubbedClient(mode, registry: registry) { client, _ throws in
            #expect(try await client.send(.user(id: 7)) == User(id: 7, name: "Grace"))
        }
    }

    @Test func signsUpOverASocket() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created, json: #"{"id": 7, "name": "Ada"}"#), for: .post("/users"))

        try await withMockServer(registry: registry) { server in
            let client = APIClient(baseURL: server.baseURL)
            let user = try await client.send(.signUp(name: "Ada"))
            #expect(user == User(id: 7, name: "Ada"))
        }

        registry.expect(.post("/users"), count: .once)
    }

    @Test func appReachesTheServerItIsLaunchedWith() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created, json: #"{"id": 7, "name": "Ada"}"#), for: .post("/users"))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let environment = ["API_BASE_URL": server.baseURL.absoluteString]

        // What the app does at launch, and when the user signs up.
        let user = try await makeAPIClient(environment: environment).send(.signUp(name: "Ada"))
        #expect(user == User(id: 7, name: "Ada"))
        server.expect(.post("/users"), count: .once)
        #expect(makeAPIClient(environment: [:]).baseURL.absoluteString == "https://api.example.com")
    }
}

@Suite struct CheckoutTests {
    let registry = StubRegistry()

    @Test func ordersOnce() async throws {
        try registry.register(StubResponse(status: .created), for: .post("/orders"))
        try await withStubbedClient(.server, registry: registry) { client, _ in
            try await client.send(Resource<Void>.post("/orders", body: ["sku": "A-1"]))
        }
        registry.expect(.post("/orders"), count: .once)
    }
}

final class UserTests: XCTestCase {
    func testLoadsAUser() async throws {
        try await withStubbedClientInEveryMode(ServingMode.allCases) { registry in
            try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        } body: { client, registry, mode in
            let user = try await client.send(.user(id: 42))
            XCTAssertEqual(user.name, "Ada", "\(mode)")
            registry.expect(.get("/users/42"), count: .once)
        }
    }
}
