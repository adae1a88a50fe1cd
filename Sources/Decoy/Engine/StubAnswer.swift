/// What the engine decided for one request: the response to give and where it came from.
public struct StubAnswer: Sendable {
    /// The response, or the fault to produce, to give the client.
    public let response: StubResponse
    /// The route of the stub that answered; `nil` when nothing matched.
    public let route: Route?
    /// How long the engine waited before answering.
    package let delay: Duration
}

/// An answer that is either ready now or must be awaited.
///
/// Servings use it to answer immediate stubs on the spot and to free their thread only for the
/// ones that wait.
package enum PreparedAnswer: Sendable {
    /// The answer, decided without waiting.
    case ready(StubAnswer)
    /// Await this for the answer; it throws only `CancellationError`.
    case pending(@Sendable () async throws -> StubAnswer)
}
