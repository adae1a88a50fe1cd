public import Decoy
public import DecoyClient
public import Foundation
import HTTPTypes

#if canImport(DecoyServer)
    import DecoyServer
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs `body` with a client answered from `registry` the way `mode` says, and tears down what it
/// set up (the server and its session) when `body` returns or throws.
///
/// The body also gets the base URL the client sends to, for code under test that builds its own
/// requests. In-process (``ServingMode/inProcess`` and ``ServingMode/urlProtocol``) it is
/// `http://decoy.invalid`, a host that never resolves, so that a request sent around the client
/// fails rather than reaching a real server.
///
/// ```swift
/// try await withStubbedClient(mode, registry: registry) { client, baseURL in
///     let user = try await client.send(.user(id: 42))
/// }
/// ```
public func withStubbedClient<Result>(
    _ mode: ServingMode,
    registry: StubRegistry,
    configuration: APIClient.Configuration = APIClient.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (APIClient, URL) async throws -> Result
) async throws -> Result {
    let served = try served(mode, registry: registry, configuration: configuration)
    defer { served.end() }
    return try await body(served.client, served.client.baseURL)
}

/// A client that `mode` answers from `registry`, and what ends the serving (stops the server,
/// invalidates the session). The client keeps the serving alive for as long as it is used.
func served(_ mode: ServingMode, registry: StubRegistry, configuration: APIClient.Configuration) throws -> (
    client: APIClient, end: @Sendable () -> Void
) {
    switch mode {
    case .inProcess:
        return (
            APIClient(baseURL: inProcessBaseURL, configuration: configuration, transport: StubTransport(registry)), {}
        )
    case .urlProtocol:
        let transport = URLSessionTransport(session: .stubbed(by: registry, configuration: .withoutCookies()))
        return (
            APIClient(baseURL: inProcessBaseURL, configuration: configuration, transport: transport),
            { transport.session.finishTasksAndInvalidate() }
        )
    #if canImport(DecoyServer)
        case .server:
            let server = MockServer(registry: registry)
            try server.start()
            let transport = ServedTransport(server: server)
            let end: @Sendable () -> Void = {
                server.stop()
                transport.base.session.finishTasksAndInvalidate()
            }
            return (APIClient(baseURL: server.baseURL, configuration: configuration, transport: transport), end)
    #endif
    }
}

/// Where in-process clients send: a host that never resolves, so that a request sent around the
/// client fails rather than reaching a real server.
private let inProcessBaseURL = URL(string: "http://decoy.invalid")!

#if canImport(DecoyServer)
    /// A `URLSessionTransport` that keeps its server running for as long as a client uses it.
    private struct ServedTransport: Transport {
        let server: MockServer
        let base = URLSessionTransport()

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            try await base.send(request, body: body)
        }
    }
#endif

/// Runs `body` once in each ``ServingMode``, each time with a fresh registry that `stubs` fills,
/// for test frameworks without parameterized tests, such as XCTest.
///
/// A fresh registry per mode keeps the runs apart: a journal shared between them would count
/// every request twice, and a sequence stub would be past its first answers in the second run.
///
/// ```swift
/// try await withStubbedClientInEveryMode { registry in
///     try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
/// } body: { client, registry, mode in
///     XCTAssertEqual(try await client.send(.user(id: 42)).name, "Ada", "\(mode)")
///     registry.expect(.get("/users/42"), count: .once)
/// }
/// ```
public func withStubbedClientInEveryMode(
    configuration: APIClient.Configuration = APIClient.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    stubs: (StubRegistry) throws -> Void,
    body: (APIClient, StubRegistry, ServingMode) async throws -> Void
) async throws {
    for mode in ServingMode.allCases {
        let registry = StubRegistry()
        try stubs(registry)
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ in
            try await body(client, registry, mode)
        }
    }
}
