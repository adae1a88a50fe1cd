/// Something that decides how to answer a request.
///
/// Most stubs answer at once, by returning ``StubResolution/response(_:)``; a stub that must
/// await something returns ``StubResolution/deferred(_:)``. Stubs are shared between
/// concurrent requests, so any state they keep must be synchronised.
///
/// ```swift
/// struct EchoStub: Stub {
///     func resolve(for request: StubRequest) -> StubResolution {
///         .response(StubResponse(status: .ok, body: request.body))
///     }
/// }
/// ```
public protocol Stub: Sendable {
    /// The answer to `request`, or how to get it.
    func resolve(for request: StubRequest) -> StubResolution
}

/// What a ``Stub`` decided for one request.
public enum StubResolution: Sendable {
    /// Answer with this response.
    case response(StubResponse)
    /// Run this to find the stub that answers; it is resolved in turn.
    case deferred(@Sendable () async throws -> any Stub)
}
