/// Answers with one stub when a condition holds and with another when it does not.
///
/// The condition may look at the request, or at app state the test controls:
///
/// ```swift
/// ConditionalStub(when: { _ in session.isSignedIn },
///                 then: StubResponse(json: #"{"name": "Ada"}"#),
///                 else: StubResponse(status: .unauthorized))
/// ```
public struct ConditionalStub: Stub {
    private let condition: @Sendable (StubRequest) -> Bool
    private let then: any Stub
    private let otherwise: any Stub

    /// Creates a stub choosing between `then` and `else` by `condition`, asked on every request.
    public init(when condition: @escaping @Sendable (StubRequest) -> Bool, then: any Stub, else otherwise: any Stub) {
        self.condition = condition
        self.then = then
        self.otherwise = otherwise
    }

    /// The chosen stub's answer.
    public func resolve(for request: StubRequest) -> StubResolution {
        (condition(request) ? then : otherwise).resolve(for: request)
    }
}
