import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Stub kinds, in both in-process servings")
struct StubKindsTests {
    @Test(arguments: ServingMode.allCases)
    func staticResponseGivesStatusHeadersAndBody(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .created, headerFields: [.init("X-Request-Id")!: "abc"], json: #"{"id": 1}"#),
            for: .post("/users")
        )
        let exchange = try await serving.exchange(registry, .post, "/users", body: Data("{}".utf8))
        #expect(exchange.status == 201)
        #expect(exchange.headerFields[.init("X-Request-Id")!] == "abc")
        #expect(exchange.headerFields[.contentType] == "application/json")
        #expect(exchange.text == #"{"id": 1}"#)
    }

    @Test(arguments: ServingMode.allCases)
    func encodableAndFileBodiesAreEncodedOnce(_ serving: ServingMode) async throws {
        struct User: Codable, Equatable { let id: Int; let name: String }
        let registry = StubRegistry()
        try registry.register(try StubResponse(encoding: User(id: 2, name: "Grace")), for: .get("/users/2"))
        let file = try #require(Bundle.module.url(forResource: "user", withExtension: "json", subdirectory: "Fixtures"))
        try registry.register(try StubResponse(contentsOf: file), for: .get("/users/1"))
        let client = try serving.client(registry)
        #expect(try await client.send(Resource<User>.get("/users/2")) == User(id: 2, name: "Grace"))
        #expect(try await client.send(Resource<User>.get("/users/1")) == User(id: 1, name: "Ada"))
    }

    @Test(arguments: ServingMode.allCases)
    func alternatingCyclesInOrder(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            AlternatingStub([
                StubResponse(text: "a"), StubResponse(text: "b"), StubResponse(status: .serviceUnavailable, text: "c"),
            ]), for: .get("/ping"))
        var seen: [String] = []
        for _ in 0..<7 { seen.append(try await serving.exchange(registry, .get, "/ping").text) }
        #expect(seen == ["a", "b", "c", "a", "b", "c", "a"])
    }

    @Test(arguments: ServingMode.allCases)
    func randomWithASeedIsReproducible(_ serving: ServingMode) async throws {
        func draws(seed: UInt64) async throws -> [String] {
            let registry = StubRegistry()
            try registry.register(
                RandomStub((0..<10).map { StubResponse(text: "\($0)") }, seed: seed), for: .get("/dice"))
            var drawn: [String] = []
            for _ in 0..<20 { drawn.append(try await serving.exchange(registry, .get, "/dice").text) }
            return drawn
        }
        let first = try await draws(seed: 42)
        #expect(try await draws(seed: 42) == first)
        #expect(try await draws(seed: 7) != first)
        #expect(Set(first).count > 3, "a fair draw of 20 from 10 shows more than 3 values")
    }

    @Test(arguments: ServingMode.allCases)
    func conditionalFlipsWithAppState(_ serving: ServingMode) async throws {
        let signedIn = Mutex(false)
        let registry = StubRegistry()
        try registry.register(
            ConditionalStub(
                when: { _ in signedIn.withLock { $0 } },
                then: StubResponse(json: #"{"name": "Ada"}"#),
                else: StubResponse(status: .unauthorized)
            ), for: .get("/me"))
        #expect(try await serving.exchange(registry, .get, "/me").status == 401)
        signedIn.withLock { $0 = true }
        #expect(try await serving.exchange(registry, .get, "/me").status == 200)
        signedIn.withLock { $0 = false }
        #expect(try await serving.exchange(registry, .get, "/me").status == 401)
    }

    @Test(arguments: ServingMode.allCases)
    func conditionalCanLookAtTheRequest(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            ConditionalStub(
                when: { $0.headerFields[.authorization] == "Bearer good" },
                then: StubResponse(status: .ok),
                else: StubResponse(status: .forbidden)
            ), for: .get("/secret"))
        #expect(
            try await serving.exchange(registry, .get, "/secret", headerFields: [.authorization: "Bearer good"]).status
                == 200)
        #expect(
            try await serving.exchange(registry, .get, "/secret", headerFields: [.authorization: "Bearer bad"]).status
                == 403)
    }

    @Test(arguments: ServingMode.allCases)
    func closureSeesTheRequestBody(_ serving: ServingMode) async throws {
        struct Order: Codable { let sku: String; let quantity: Int }
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { request in
                let order = try request.decodeBody(as: Order.self)
                return StubResponse(
                    status: .created, json: #"{"sku": "\#(order.sku)", "total": \#(order.quantity * 3)}"#)
            }, for: .post("/orders"))
        let exchange = try await serving.exchange(
            registry, .post, "/orders", body: Data(#"{"sku": "A-1", "quantity": 4}"#.utf8))
        #expect(exchange.status == 201)
        #expect(exchange.text == #"{"sku": "A-1", "total": 12}"#)
    }

    @Test(arguments: ServingMode.allCases)
    func closureThatThrowsAnswers500NamingTheError(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { request in
                _ = try request.decodeBody(as: [String: Int].self)
                return StubResponse(status: .ok)
            }, for: .post("/strict"))
        let exchange = try await serving.exchange(registry, .post, "/strict", body: Data("not json".utf8))
        #expect(exchange.status == 500)
        #expect(exchange.text.hasPrefix("The stub for POST /strict threw an error: "))
    }

    @Test(arguments: ServingMode.allCases)
    func closureMayReturnAnotherStub(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        let inner = AlternatingStub([StubResponse(text: "one"), StubResponse(text: "two")])
        try registry.register(ClosureStub { _ in inner }, for: .get("/nested"))
        #expect(try await serving.exchange(registry, .get, "/nested").text == "one")
        #expect(try await serving.exchange(registry, .get, "/nested").text == "two")
    }

    @Test(arguments: ServingMode.allCases)
    func sequenceFailsThenSucceeds(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            SequenceStub(
                first: [StubResponse(status: .serviceUnavailable), StubResponse(status: .badGateway)],
                then: StubResponse(text: "ok")
            ), for: .get("/flaky"))
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await serving.exchange(registry, .get, "/flaky").status) }
        #expect(statuses == [503, 502, 200, 200])
    }

    @Test(arguments: ServingMode.allCases)
    func headGetsHeadersWithoutABody(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "body"), for: .any("/thing"))
        let exchange = try await serving.exchange(registry, .head, "/thing")
        #expect(exchange.status == 200)
        #expect(exchange.body.isEmpty)
    }

    @Test(arguments: ServingMode.allCases)
    func customStubConformsToStub(_ serving: ServingMode) async throws {
        struct EchoStub: Stub {
            func resolve(for request: StubRequest) -> StubResolution {
                .response(StubResponse(status: .ok, body: request.body))
            }
        }
        let registry = StubRegistry()
        try registry.register(EchoStub(), for: .put("/echo"))
        #expect(try await serving.exchange(registry, .put, "/echo", body: Data("hello".utf8)).text == "hello")
    }
}
