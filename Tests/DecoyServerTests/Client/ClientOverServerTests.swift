import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Client features where the wire matters, each run in-process and against MockServer.
@Suite("Client features in both servings")
struct ClientOverServerTests {
    struct Person: Codable, Equatable, Sendable { let name: String }

    @Test(arguments: ServingMode.allCases)
    func cancellingTheTaskCancelsTheRequestAndTheStubDelay(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "{}", delay: .fixed(.seconds(600))), for: .get("/slow"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let started = ContinuousClock.now
            let task = Task { try await client.send(Resource<Void>.get("/slow")) }
            // The stub has the request once the journal has it: only then is there something to cancel.
            for _ in 0..<2_000 where registry.journal.totalCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
            #expect(registry.journal.totalCount == 1)
            task.cancel()
            let error = await #expect(throws: APIError.self) { try await task.value }
            guard case .transport(let failure, _) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))"); return
            }
            #expect(failure == .cancelled)
            #expect(ContinuousClock.now - started < endlessWait, "the ten-minute delay was not waited out")
        }
    }

    @Test(arguments: ServingMode.allCases)
    func emptyBodiesDecodeAsNothing(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .noContent), for: .delete("/people/1"))
        try registry.register(StubResponse(status: .noContent), for: .get("/people/1"))
        try registry.register(StubResponse(), for: .get("/people/2"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            try await client.send(Resource<Void>.delete("/people/1"))
            #expect(try await client.send(Resource<Person?>.get("/people/1")) == nil)
            #expect(try await client.send(Resource<Person?>.get("/people/2")) == nil)
            await #expect(throws: APIError.self) { try await client.send(Resource<Person>.get("/people/2")) }
        }
    }

    @Test(arguments: ServingMode.allCases)
    func cachedResponsesKeepStatusAndHeaders(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.eTag: "\"v1\""], json: #"{"name": "Ada"}"#), for: .get("/people/1"))
        let configuration = APIClient.Configuration(cache: .memory(), cachePolicy: .cacheElseNetwork)
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ in
            let network = try await client.response(for: Resource<Person>.get("/people/1"))
            let cached = try await client.response(for: Resource<Person>.get("/people/1"))
            #expect(network.source == .network)
            #expect(cached.source == .cache)
            #expect(cached.value == Person(name: "Ada"))
            #expect(cached.headerFields[.eTag] == "\"v1\"")
            #expect(registry.journal.totalCount == 1)
        }
    }

    struct Health: Request {
        let baseURL: URL
        @Query(name: "verbose") var verbose = true
        var resource: Resource<[String: String]> { .get(baseURL.appending(path: "health").absoluteString) }
    }

    @Test func aRequestLoadsThroughURLSessionFromAServer() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(json: #"{"status": "up"}"#), for: Route.get("/health").query("verbose", .equalTo("true")))
        try await withMockServer(registry: registry) { server throws in
            #expect(try await URLSessionTransport().load(Health(baseURL: server.baseURL)) == ["status": "up"])
        }
    }
}
