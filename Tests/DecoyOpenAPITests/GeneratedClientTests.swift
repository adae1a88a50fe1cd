import Clocks
import Decoy
import DecoyClient
import DecoyOpenAPI
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The two ways a generated client reaches a registry: in-process through `StubTransport`,
/// and over a real `MockServer` through `URLSessionTransport`.
enum OpenAPIServing: String, CaseIterable, CustomTestStringConvertible {
    case inProcess
    case server

    var testDescription: String { rawValue }

    /// Runs `body` with a generated client answered from `registry` this way; `middlewares` go
    /// before the transport.
    func withClient<Result>(
        _ registry: StubRegistry, middlewares: [any ClientMiddleware] = [], _ body: (Client) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .inProcess:
            let client = Client(
                serverURL: URL(string: "https://api.example.com/v1")!, transport: StubTransport(registry),
                middlewares: middlewares)
            return try await body(client)
        case .server:
            return try await withMockServer(registry: registry) { server in
                let session = URLSession(configuration: .ephemeral)
                let client = Client(
                    serverURL: server.baseURL.appending(path: "v1"),
                    transport: URLSessionTransport(session: session),
                    middlewares: middlewares)
                return try await body(client)
            }
        }
    }
}

/// The spec's paths under the clients' `/v1`.
let versioned = try! OpenAPISpec(contentsOf: Specs.url("users.yaml"), basePath: "/v1")

@Suite("A generated client against stubs registered by operationId")
struct GeneratedClientTests {
    @Test(arguments: OpenAPIServing.allCases)
    func aStubRegisteredForAnOperationAnswersTheGeneratedClient(_ serving: OpenAPIServing) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(json: #"{"id": 7, "name": "Barbara"}"#), forOperation: "getUser", in: versioned)
        let user = try await serving.withClient(registry) { client in
            try await client.getUser(path: .init(id: 7)).ok.body.json
        }
        #expect(user == Components.Schemas.User(id: 7, name: "Barbara"))
        try registry.verify(.get("/v1/users/7"), count: .exactly(1))
    }

    @Test(arguments: OpenAPIServing.allCases)
    func theRequestBodyReachesTheStubAndTheJournal(_ serving: OpenAPIServing) async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { request in
                let made = try request.decodeBody(as: Components.Schemas.NewUser.self)
                return try StubResponse(status: .created, encoding: Components.Schemas.User(id: 9, name: made.name))
            }, forOperation: "createUser", in: versioned)
        let created = try await serving.withClient(registry) { client in
            try await client.createUser(body: .json(.init(name: "Edsger"))).created.body.json
        }
        #expect(created == Components.Schemas.User(id: 9, name: "Edsger"))
        #expect(
            try registry.journal.entries.map { try $0.request.decodeBody(as: Components.Schemas.NewUser.self) } == [
                .init(name: "Edsger")
            ])
    }

    @Test(arguments: OpenAPIServing.allCases)
    func aFaultFailsTheGeneratedClientWithTheSameURLErrorInBothServings(_ serving: OpenAPIServing) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(.connectionReset), forOperation: "listUsers", in: versioned)
        await #expect {
            try await serving.withClient(registry) { client in _ = try await client.listUsers() }
        } throws: { error in
            ((error as? ClientError)?.underlyingError as? URLError)?.code == .networkConnectionLost
        }
    }

    @Test(arguments: OpenAPIServing.allCases)
    func aDelayHoldsTheAnswerOnTheRegistrysClock(_ serving: OpenAPIServing) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            StubResponse(json: "[]", delay: .fixed(.seconds(2))), forOperation: "listUsers", in: versioned)
        let finished = Mutex(false)
        let call = Task {
            let users = try await serving.withClient(registry) { client in try await client.listUsers().ok.body.json }
            finished.withLock { $0 = true }
            return users
        }
        await waitUntilSleeping(clock)
        await clock.advance(by: .milliseconds(1_999))
        #expect(!finished.withLock { $0 })
        await clock.advance(by: .milliseconds(1))
        #expect(try await call.value == [])
    }

    @Test(arguments: OpenAPIServing.allCases)
    func anUnmatchedRequestIsTheEnginesUndocumented404(_ serving: OpenAPIServing) async throws {
        let registry = StubRegistry()
        let output = try await serving.withClient(registry) { client in try await client.listUsers() }
        guard case .undocumented(statusCode: 404, _) = output else {
            Issue.record("expected the 404 the spec does not describe with this body, got \(output)")
            return
        }
        #expect(registry.journal.entries.count == 1)
    }
}
