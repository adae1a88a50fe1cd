/// A WireMock-style scenario step: a named state machine whose state decides which routes answer.
///
/// Every scenario starts in ``started``. A route with a ``requiredState`` answers only in that
/// state; a route with a ``newState`` moves the scenario there each time it answers.
///
/// ```swift
/// try registry.register(
///     StubResponse(json: "[]"), for: Route.get("/cart").scenario("checkout", requiredState: Scenario.started))
/// try registry.register(
///     StubResponse(status: .created), for: Route.post("/cart").scenario("checkout", newState: "filled"))
/// try registry.register(
///     StubResponse(json: #"[{"sku": "A-1"}]"#), for: Route.get("/cart").scenario("checkout", requiredState: "filled"))
/// ```
public struct Scenario: Sendable, Hashable, CustomStringConvertible {
    /// The state every scenario starts in, and returns to when the registry resets scenarios.
    public static let started = "Started"

    /// The scenario's name; routes with the same name share its state.
    public var name: String
    /// The state the scenario must be in for the route to answer; `nil` for any.
    public var requiredState: String?
    /// The state the scenario moves to when the route answers; `nil` to leave it.
    public var newState: String?

    /// Creates a scenario step.
    public init(name: String, requiredState: String? = nil, newState: String? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }

    /// `in scenario "name"`, with the required and new states, as route descriptions end.
    public var description: String {
        var text = "in scenario \"\(name)\""
        if let requiredState { text += " at \"\(requiredState)\"" }
        if let newState { text += " moving to \"\(newState)\"" }
        return text
    }
}
