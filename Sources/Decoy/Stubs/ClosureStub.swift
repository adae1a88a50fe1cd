/// Answers by running an async closure, which returns a response or any other stub.
///
/// The closure sees the whole request, body included. When it throws, the request is answered
/// with `500 Internal Server Error` naming the error, the same in every serving.
///
/// ```swift
/// ClosureStub { request in
///     let user = try request.decodeBody(as: User.self)
///     return try StubResponse(status: .created, encoding: user)
/// }
/// ```
public struct ClosureStub: Stub {
    private let body: @Sendable (StubRequest) async throws -> any Stub

    /// Creates a stub that runs `body` for every request.
    public init(_ body: @escaping @Sendable (StubRequest) async throws -> any Stub) {
        self.body = body
    }

    /// Defers to the closure.
    public func resolve(for request: StubRequest) -> StubResolution {
        .deferred { try await body(request) }
    }
}
