/// Answers with one stub when a condition holds and with another when it does not.
///
/// The condition may look at the request, or at app state the test controls:
///
/// ```swift
/// ConditionalStub(when: { _ in session.isSignedIn },
///                 then: StubResponse(json: #"{"name": "Ada"}"#),
///                 else: StubResponse(status: .unauthorized))
/// ```
///
/// Made from request matchers instead of a closure, it is data, as a stub file's `when` is, and
/// can be sent to a server:
///
/// ```swift
/// try ConditionalStub(when: [.header(.authorization, .present)],
///                     then: StubResponse(json: #"{"name": "Ada"}"#),
///                     else: StubResponse(status: .unauthorized))
/// ```
public struct ConditionalStub: Stub {
    private let condition: @Sendable (StubRequest) -> Bool
    /// The matchers the condition is made of; `nil` for a closure.
    let matchers: [RequestMatcher]?
    let then: any Stub
    let otherwise: any Stub

    /// Creates a stub choosing between `then` and `else` by `condition`, asked on every request.
    public init(when condition: @escaping @Sendable (StubRequest) -> Bool, then: any Stub, else otherwise: any Stub) {
        self.condition = condition
        self.matchers = nil
        self.then = then
        self.otherwise = otherwise
    }

    /// Creates a stub answering with `then` when the request satisfies every one of `matchers`,
    /// and with `else` when it does not.
    ///
    /// - Throws: the first matcher that does not compile, such as an invalid regular expression.
    public init(when matchers: [RequestMatcher], then: any Stub, else otherwise: any Stub) throws(DecoyError) {
        // The route only labels compile errors.
        let compiled = try matchers.map { matcher throws(DecoyError) in
            try CompiledMatcher(matcher, route: Route(method: nil, path: "/"))
        }
        self.condition = { request in compiled.allSatisfy { $0.accepts(request) } }
        self.matchers = matchers
        self.then = then
        self.otherwise = otherwise
    }

    /// The chosen stub's answer.
    public func resolve(for request: StubRequest) -> StubResolution {
        (condition(request) ? then : otherwise).resolve(for: request)
    }
}
