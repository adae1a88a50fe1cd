/// Wraps the stub of a route with a new scenario state: answering moves the scenario on.
struct ScenarioTransitionStub: Stub {
    let stub: any Stub
    let scenario: String
    let newState: String
    let states: ScenarioStates

    func resolve(for request: StubRequest) -> StubResolution {
        states.set(scenario, to: newState)
        return stub.resolve(for: request)
    }
}
