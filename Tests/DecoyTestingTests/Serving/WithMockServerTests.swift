import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import Foundation
import Testing

@Suite("withMockServer")
struct WithMockServerTests {
    struct Failure: Error {}

    @Test func servesTheRegistryWithTheConfigurationAndStopsWhenTheBodyReturns() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "pong"), for: .get("/ping"))
        let (server, answer) = try await withMockServer(
            registry: registry, configuration: .init(adminAccess: .token("s3cret"))
        ) { server in
            #expect(server.isRunning)
            return (server, try await APIClient(baseURL: server.baseURL).send(Resource<String>.get("/ping")))
        }
        #expect(answer == "pong")
        #expect(server.configuration.adminAccess == .token("s3cret"))
        #expect(!server.isRunning)
        #expect(registry.journal.totalCount == 1)
    }

    @Test func stopsTheServerWhenTheBodyThrows() async throws {
        let stopped = Mutex<MockServer?>(nil)
        await #expect(throws: Failure.self) {
            try await withMockServer(registry: StubRegistry()) { server in
                stopped.withLock { $0 = server }
                throw Failure()
            }
        }
        let server = try #require(stopped.withLock { $0 })
        #expect(!server.isRunning)
    }

    @Test func throwsWhatStartingTheServerThrowsAndRunsNoBody() async throws {
        await #expect(throws: MockServerError.invalidHost("localhost")) {
            try await withMockServer(registry: StubRegistry(), configuration: .init(host: "localhost")) { _ in
                Issue.record("the body ran without a server")
            }
        }
    }
}
