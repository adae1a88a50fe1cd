public import Decoy
public import DecoyServer

/// Runs `body` with a started `MockServer` answering from `registry`, and stops the server when
/// `body` returns or throws. Throws what starting the server throws, or what `body` throws.
///
/// ```swift
/// try await withMockServer(registry: registry) { server in
///     let client = APIClient(baseURL: server.baseURL)
///     …
/// }
/// ```
public func withMockServer<Result>(
    registry: StubRegistry,
    configuration: MockServer.Configuration = MockServer.Configuration(),
    isolation: isolated (any Actor)? = #isolation,
    _ body: (MockServer) async throws -> Result
) async throws -> Result {
    let server = MockServer(registry: registry, configuration: configuration)
    try server.start()
    defer { server.stop() }
    return try await body(server)
}
