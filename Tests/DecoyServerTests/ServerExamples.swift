// swift-format-ignore-file
// The examples of docs/server.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyClient
import DecoyServer
import DecoyStubFiles
import Foundation
import Logging
import Testing
import HTTPTypes

struct User: Codable, Sendable, Equatable {
    let id: Int
    let name: String
}

extension Resource where Value == User {
    static func user(id: Int) -> Resource { .get("/users/\(id)") }
}

@Suite("The server, as documented")
struct ServerExamples {
    @Test func talksToARealServer() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }

        let client = APIClient(baseURL: server.baseURL)
        let user = try await client.send(.user(id: 42))

        #expect(user.name == "Ada")
        try registry.verify(.get("/users/42"), count: .once)
    }

    @Test func configured() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/upload"))
        let server = MockServer(registry: registry, configuration: .init(
            host: "127.0.0.1",                 // or "::1"
            port: 0,                           // 0: any free port
            threadCount: 2,                    // threads that answer immediate stubs
            maxBodySize: 1024 * 1024,          // larger bodies get 413
            connectionLimit: 1_000,            // more connections get 503 and are closed
            connectionTimeout: .seconds(10),   // idle or too-slow clients are cut off
            logger: Logger(label: "mock")      // a line per request at info
        ))
        try server.start()
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL)
        try await client.send(Resource<Void>(method: .post, path: "/upload", body: .data(Data(count: 1024), contentType: nil)))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<Void>(method: .post, path: "/upload", body: .data(Data(count: 1024 * 1024 + 1), contentType: nil)))
        }
        guard case .unacceptableStatus(let failure) = error else { Issue.record("expected 413"); return }
        #expect(failure.status == .contentTooLarge)
    }

    @Test(needsCurl) func servesHTTPS() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
        var configuration = MockServer.Configuration()
        configuration.tls = .init()                        // a free port, a certificate authority made now
        let server = MockServer(registry: registry, configuration: configuration)
        try server.start()
        defer { server.stop() }
        let authority = server.certificateAuthorityPEM!    // what a client trusts, and nothing else
        let url = server.httpsBaseURL                      // https://127.0.0.1:PORT; server.baseURL stays http
        let caFile = FileManager.default.temporaryDirectory.appending(path: "decoy-ca-\(UUID().uuidString).pem")
        try Data(authority.utf8).write(to: caFile)
        defer { try? FileManager.default.removeItem(at: caFile) }
        let reply = try await curl(["--cacert", caFile.path, url.absoluteString + "/users/42"])
        #expect(reply == #"{"id": 42, "name": "Ada"}"#)
    }

    @Test func aTLSFaultInProcess() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 1, "name": "Ada"}"#), for: .get("/users/{id}"))
        registry.tlsFault = .expiredCertificate   // every https request, in-process
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        do throws(APIError) {
            _ = try await client.send(.user(id: 1))
            Issue.record("expected the handshake to fail")
        } catch .transport(let failure, _) {
            #expect(failure == .serverCertificateExpired)
        } catch {
            Issue.record("expected a transport failure, got \(error)")
        }
    }

    @Test func adminAPIInSwift() async throws {
        let registry = StubRegistry()
        let server = MockServer(registry: registry, configuration: .init(adminAccess: .token("s3cret")))
        try server.start()
        defer { server.stop() }
        let client = APIClient(baseURL: server.baseURL)

        try await sendFlagsRequest(client, registry)

        let mapping = try registry.addMapping(Data(#"{"request": {"urlPath": "/flags"}, "response": {"jsonBody": {"newCheckout": true}}}"#.utf8))
        let pattern = try RequestPattern(json: Data(#"{"method": "GET", "urlPath": "/flags"}"#.utf8))
        let flagRequests = registry.journal.entries(matching: pattern)
        registry.removeMapping(id: mapping.id)
        registry.reset()   // stubs back to files and code, journal and scenarios cleared

        #expect(flagRequests.count == 1)
        #expect(registry.mappings.map(\.origin) == [.code], "the stub from code stays")
        #expect(registry.journal.entries.isEmpty)
        let refused = await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("/__admin/health")) }
        guard case .unacceptableStatus(let failure) = refused else { Issue.record("expected 401"); return }
        #expect(failure.status == .unauthorized)
    }

    /// A request the journal search of the admin example finds: sent before the example's mapping, to an earlier one.
    private func sendFlagsRequest(_ client: APIClient, _ registry: StubRegistry) async throws {
        try registry.register(StubResponse(json: #"{"newCheckout": false}"#), for: .get("/flags"))
        #expect(try await client.send(Resource<[String: Bool]>.get("/flags")) == ["newCheckout": false])
    }
}
