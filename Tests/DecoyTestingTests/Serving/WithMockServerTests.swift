import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTesting
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

    @Test func aFailureAgainstARunningServerNamesItsDashboard() async throws {
        let registry = StubRegistry()
        try await withMockServer(registry: registry) { server in
            let message = """
                Expected at least 1 request matching GET /x, but received 0.
                No requests were received.
                See every request, and why one did not match, at \(server.baseURL)/__admin/dashboard
                """
            expectFailure(message) { server.expect(.get("/x")) }
        }
        try await withMockServer(registry: registry, configuration: .init(adminAccess: .off)) { server in
            let message = "Expected at least 1 request matching GET /x, but received 0.\nNo requests were received."
            expectFailure(message) { server.expect(.get("/x")) }
        }
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
        await #expect(throws: DecoyError.invalidHost("localhost")) {
            try await withMockServer(registry: StubRegistry(), configuration: .init(host: "localhost")) { _ in
                Issue.record("the body ran without a server")
            }
        }
    }
}
