public import Decoy
public import DecoyClient
public import Foundation

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
    let served = try mode.serve(registry, configuration)
    defer { served.end() }
    return try await body(served.client, served.client.baseURL)
}

/// Runs `body` once in each of `modes`, each time with a fresh registry that `stubs` fills, for
/// test frameworks without parameterized tests, such as XCTest.
///
/// A fresh registry per mode keeps the runs apart: a journal shared between them would count
/// every request twice, and a sequence stub would be past its first answers in the second run.
///
/// ```swift
/// try await withStubbedClientInEveryMode(ServingMode.inProcessModes) { registry in
///     try registry.register(StubResponse(json: #"{"id": 42, "name": "Ada"}"#), for: .get("/users/{id}"))
/// } body: { client, registry, mode in
///     XCTAssertEqual(try await client.send(.user(id: 42)).name, "Ada", "\(mode)")
///     registry.expect(.get("/users/42"), count: .once)
/// }
/// ```
public func withStubbedClientInEveryMode(
    _ modes: [ServingMode],
    configuration: APIClient.Configuration = APIClient.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    stubs: (StubRegistry) throws -> Void,
    body: (APIClient, StubRegistry, ServingMode) async throws -> Void
) async throws {
    for mode in modes {
        let registry = StubRegistry()
        try stubs(registry)
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ in
            try await body(client, registry, mode)
        }
    }
}
