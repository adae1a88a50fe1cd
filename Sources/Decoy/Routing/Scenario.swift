/// A route's step in a WireMock-style scenario, a named state machine whose state decides which
/// routes answer: ``Route/scenario(_:requiredState:newState:)`` makes one.
///
/// Every scenario starts in ``started``. A route with a ``requiredState`` answers only in that
/// state; a route with a ``newState`` moves the scenario there each time it answers.
package struct Scenario: Sendable, Hashable, CustomStringConvertible {
    /// The state every scenario starts in, and returns to when the registry resets scenarios.
    package static let started = Route.scenarioStarted

    /// The scenario's name; routes with the same name share its state.
    package var name: String
    /// The state the scenario must be in for the route to answer; `nil` for any.
    package var requiredState: String?
    /// The state the scenario moves to when the route answers; `nil` to leave it.
    package var newState: String?

    /// Creates a scenario step.
    package init(name: String, requiredState: String? = nil, newState: String? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }

    /// `in scenario "name"`, with the required and new states, as route descriptions end.
    package var description: String {
        var text = "in scenario \"\(name)\""
        if let requiredState { text += " at \"\(requiredState)\"" }
        if let newState { text += " moving to \"\(newState)\"" }
        return text
    }
}
