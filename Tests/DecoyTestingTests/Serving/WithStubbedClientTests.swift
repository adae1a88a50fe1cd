import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("withStubbedClient")
struct WithStubbedClientTests {
    struct User: Codable, Equatable {
        let id: Int
        let name: String
    }

    struct Failure: Error {}

    @Test(arguments: ServingMode.allCases)
    func servesTheRegistryAndReturnsTheBodysResult(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(json: #"{"id": 42, "name": "Ada"}"#),
            for: .get("/users/{id}").header(.init("X-App")!, .equalTo("tests")))
        let configuration = APIClient.Configuration(headerFields: [.init("X-App")!: "tests"])
        let (user, baseURL) = try await withStubbedClient(mode, registry: registry, configuration: configuration) {
            client, baseURL in
            #expect(client.baseURL == baseURL)
            return (try await client.send(Resource<User>.get("/users/42")), baseURL)
        }
        #expect(user == User(id: 42, name: "Ada"))
        registry.expect(.get("/users/42"), count: .once)
        if mode == .server {
            #expect(baseURL.host == "127.0.0.1" && baseURL.port != 0)
        } else {
            #expect(baseURL.absoluteString == "http://decoy.invalid")
        }
    }

    @Test func stopsTheServerWhenTheBodyThrows() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/ping"))
        let served = Mutex<URL?>(nil)
        await #expect(throws: Failure.self) {
            try await withStubbedClient(.server, registry: registry) { client, baseURL in
                try await client.send(Resource<Void>.get("/ping"))
                served.withLock { $0 = baseURL }
                throw Failure()
            }
        }
        let baseURL = try #require(served.withLock { $0 })
        // Had the server outlived the body, this request would reach the registry's journal.
        await #expect(throws: APIError.self) { try await APIClient(baseURL: baseURL).send(Resource<Void>.get("/ping")) }
        #expect(registry.journal.totalCount == 1)
    }

    @Test func everyModeRunsOnceEachWithAFreshRegistry() async throws {
        let runs = Mutex<[(ServingMode, StubRegistry)]>([])
        try await withStubbedClientInEveryMode(ServingMode.allCases) { registry in
            try registry.register(
                SequenceStub(first: [StubResponse(text: "first")], then: StubResponse(text: "later")),
                for: .get("/step"))
        } body: { client, registry, mode in
            let response = try await client.response(for: Resource<Void>.get("/step"))
            #expect(String(decoding: response.body, as: UTF8.self) == "first", "\(mode)")
            runs.withLock { $0.append((mode, registry)) }
        }
        let (modes, registries) = runs.withLock { ($0.map(\.0), $0.map(\.1)) }
        #expect(modes == ServingMode.allCases)
        #expect(registries.map(\.journal.totalCount) == modes.map { _ in 1 })
        #expect(Set(registries.map(ObjectIdentifier.init)).count == modes.count)
    }

    @Test func theInProcessModesOpenNoSocketAndEveryModeAddsTheServer() {
        #expect(ServingMode.inProcessModes == [.inProcess, .urlProtocol])
        #expect(ServingMode.allCases == [.inProcess, .urlProtocol, .server])
        #expect(ServingMode.allCases.map(\.description) == ["inProcess", "urlProtocol", "server"])
    }
}
