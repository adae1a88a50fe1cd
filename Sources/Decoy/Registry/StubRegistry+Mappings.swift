import DecoyClient

/// Managing stubs by id, in WireMock's mapping format, as the admin API does. Stubs added this
/// way are temporary: ``resetMappings()`` removes them and brings back the stubs from code and
/// files that were removed or replaced since.
extension StubRegistry {
    /// Every registration, newest first.
    public var mappings: [StubMapping] {
        contents.withLock(\.mappings)
    }

    /// The registration with `id`, if there is one.
    public func mapping(id: String) -> StubMapping? {
        contents.withLock { $0.mapping(id: id) }
    }

    /// Removes the registration `id`; ``resetMappings()`` brings it back if it came from code or a file.
    ///
    /// - Returns: the removed mapping, or `nil` when no registration has `id`.
    @discardableResult
    public func removeMapping(id: String) -> StubMapping? {
        contents.withLock { $0.remove(id: id) }
    }

    /// Removes every registration; ``resetMappings()`` brings back those from code and files.
    public func removeAllMappings() {
        contents.withLock { $0.removeAll(restorable: true) }
    }

    /// Back to the stubs from code and files: those added by mapping go, those removed come back.
    public func resetMappings() {
        contents.withLock { $0.restoreBaseline() }
    }

    /// Back to the start: ``resetMappings()``, an empty journal, and every scenario in ``Route/scenarioStarted``.
    public func reset() {
        resetMappings()
        journal.reset()
        resetScenarios()
    }

    /// The scenarios the registered routes take part in, with each one's current state and the
    /// states its routes name, sorted by name.
    package var scenarioSummaries: [ScenarioSummary] {
        let routes = routes
        var states: [String: Set<String>] = [:]
        for scenario in routes.compactMap(\.scenario) {
            states[scenario.name, default: [Scenario.started]].formUnion(
                [scenario.requiredState, scenario.newState].compactMap { $0 })
        }
        return states.keys.sorted().map { name in
            ScenarioSummary(name: name, state: scenarioState(name), possibleStates: states[name, default: []].sorted())
        }
    }
}

/// A scenario of a registry, as the admin API lists it.
package struct ScenarioSummary: Sendable, Hashable {
    /// The scenario's name.
    package let name: String
    /// The state it is in now.
    package let state: String
    /// Every state its routes require or move to, ``Route/scenarioStarted`` included.
    package let possibleStates: [String]
}
