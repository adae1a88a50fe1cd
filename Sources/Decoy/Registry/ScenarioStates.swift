import DecoyClient

/// The current state of each scenario of one registry.
final class ScenarioStates: Sendable {
    private let states = Mutex<[String: String]>([:])

    /// The state of the scenario `name`; ``Scenario/started`` until a route moves it.
    func state(of name: String) -> String {
        states.withLock { $0[name] } ?? Scenario.started
    }

    func set(_ name: String, to state: String) {
        states.withLock { $0[name] = state }
    }

    /// Puts every scenario back in ``Scenario/started``.
    func reset() {
        states.withLock { $0 = [:] }
    }
}
