public import Foundation

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

    /// Registers the stub `json` describes, in the stub-file format; a stub with the same `id`
    /// is replaced. `bodyFileName`s are looked up in the stubs folder loaded last.
    ///
    /// - Throws: every problem in the document, by field; nothing is registered then.
    @discardableResult
    public func addMapping(_ json: Data) throws(StubFolderError) -> StubMapping {
        // Without an id to replace, there is always a mapping.
        try addMapping(json, id: nil)!
    }

    /// Replaces the registration `id` with the stub `json` describes, keeping the id.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has `id`; then nothing changes.
    /// - Throws: every problem in the document, by field; nothing changes then.
    public func replaceMapping(id: String, with json: Data) throws(StubFolderError) -> StubMapping? {
        try addMapping(json, id: id)
    }

    /// Registers the stub in `json` under `replacing`, or under its own or a new id when `nil`.
    /// The document is read outside the lock; whether `replacing` still exists is decided inside
    /// it, so that a removal at the same moment is not undone.
    private func addMapping(_ json: Data, id replacing: String?) throws(StubFolderError) -> StubMapping? {
        let folder = contents.withLock(\.folder)
        let definition = try StubDocument.stub(json, source: "request body", folder: folder).get()
        let id = replacing ?? definition.loaded.id ?? UUID().uuidString.lowercased()
        let stub = scenarioAware(definition.stub, for: definition.route.route)
        return contents.withLock { contents in
            if replacing != nil, contents.mapping(id: id) == nil { return nil }
            return contents.insert(definition.route, stub: stub, id: id, origin: .adminAPI, json: definition.json(id: id))
        }
    }

    /// Removes the registration `id`; ``resetMappings()`` brings it back if it came from code or a file.
    ///
    /// - Returns: the removed mapping, or `nil` when no registration has `id`.
    @discardableResult
    public func removeMapping(id: String) -> StubMapping? {
        contents.withLock { contents in
            contents.mapping(id: id).flatMap { contents.remove($0.handle.id, restorable: true) }
        }
    }

    /// Removes every registration; ``resetMappings()`` brings back those from code and files.
    public func removeAllMappings() {
        contents.withLock { $0.removeAll(restorable: true) }
    }

    /// Back to the stubs from code and files: those added by mapping go, those removed come back.
    public func resetMappings() {
        contents.withLock { $0.restoreBaseline() }
    }

    /// Back to the start: ``resetMappings()``, an empty journal, and every scenario in ``Scenario/started``.
    public func reset() {
        resetMappings()
        journal.reset()
        resetScenarios()
    }

    /// The scenarios the registered routes take part in, with each one's current state and the
    /// states its routes name, sorted by name.
    public var scenarioSummaries: [ScenarioSummary] {
        let routes = routes
        var states: [String: Set<String>] = [:]
        for scenario in routes.compactMap(\.scenario) {
            states[scenario.name, default: [Scenario.started]].formUnion([scenario.requiredState, scenario.newState].compactMap { $0 })
        }
        return states.keys.sorted().map { name in
            ScenarioSummary(name: name, state: scenarioState(name), possibleStates: states[name, default: []].sorted())
        }
    }
}

/// A scenario of a registry, as the admin API lists it.
public struct ScenarioSummary: Sendable, Hashable {
    /// The scenario's name.
    public let name: String
    /// The state it is in now.
    public let state: String
    /// Every state its routes require or move to, ``Scenario/started`` included.
    public let possibleStates: [String]
}
