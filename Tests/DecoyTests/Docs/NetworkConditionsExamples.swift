// swift-format-ignore-file
// The examples of docs/network-conditions.md, verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyClient
import Foundation
import Testing
import HTTPTypes

@Suite("Network conditions, as documented")
struct NetworkConditionsExamples {
    struct Ok: Codable, Equatable { let ok: Bool }

    @Test func delays() async throws {
        let registry = StubRegistry(clock: ImmediateClock())
        try registry.register(StubResponse(json: #"{"id": 1}"#, delay: .fixed(.milliseconds(300))), for: .get("/users/1"))
        try registry.register(StubResponse(text: "jittery", delay: .uniform(.milliseconds(100)...(.milliseconds(300)))), for: .get("/search"))
        try registry.register(StubResponse(text: "realistic", delay: .lognormal(median: .milliseconds(80), sigma: 0.4)), for: .get("/feed"))
        #expect(try await registry.engine.deliver(StubRequest(method: .get, target: "/users/1")).delay == .milliseconds(300))
    }

    @Test func defaultDelay() async throws {
        let registry = StubRegistry(seed: 7, defaultDelay: .lognormal(median: .milliseconds(120), sigma: 0.5))
        try registry.register(StubResponse(text: "slow like the rest"), for: .get("/orders"))
        try registry.register(StubResponse(text: "instant", delay: .fixed(.zero)), for: .get("/health"))
        #expect(try await registry.engine.deliver(StubRequest(method: .get, target: "/health")).delay == .zero)
        guard case .pending = registry.engine.prepare(StubRequest(method: .get, target: "/orders")) else {
            Issue.record("the default delay should make /orders wait")
            return
        }
    }

    @Test func slowBodies() async throws {
        let registry = StubRegistry(clock: ImmediateClock())
        let videoURL = try #require(Bundle.module.url(forResource: "user", withExtension: "json", subdirectory: "Fixtures"))
        try registry.register(StubResponse(text: String(repeating: "x", count: 4_096)).throttled(.chunks(count: 4, over: .seconds(2))), for: .get("/report"))
        try registry.register(try StubResponse(contentsOf: videoURL).throttled(.bytesPerSecond(64 * 1_024)), for: .get("/video"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        #expect(try await client.send(Resource<String>.get("/report")).count == 4_096)
    }

    @Test func faults() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(.connectionReset), for: .get("/reset"))
        try registry.register(StubResponse.fault(.timeout), for: .get("/hang"))
        try registry.register(StubResponse.fault(.transportError(.notConnectedToInternet)), for: .get("/offline"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("/offline")) }
    }

    @Test func flakyEndpoints() async throws {
        let registry = StubRegistry()
        let flaky = FailingStub(failing: 0.3, with: StubResponse.fault(.connectionReset), otherwise: StubResponse(json: #"{"ok": true}"#), seed: 7)
        try registry.register(flaky, for: .get("/status"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!,
                               configuration: .init(retry: RetryPolicy(maxAttempts: 5, wait: .milliseconds(10), multiplier: 1)),
                               transport: StubTransport(registry))
        #expect(try await client.send(Resource<Ok>.get("/status")) == Ok(ok: true))
    }
}
