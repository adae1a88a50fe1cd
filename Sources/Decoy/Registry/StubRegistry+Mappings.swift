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
        let definition = try decode(json)
        // Without an id to replace, there is always a mapping.
        return insert(definition, id: definition.loaded.id ?? Self.newID(), replacing: false)!
    }

    /// Replaces the registration `id` with the stub `json` describes, keeping the id.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has `id`; then nothing changes.
    /// - Throws: every problem in the document, by field; nothing changes then.
    public func replaceMapping(id: String, with json: Data) throws(StubFolderError) -> StubMapping? {
        insert(try decode(json), id: id, replacing: true)
    }

    /// Replaces the registration whose id the stub `json` gives with that stub, as WireMock's
    /// `editStub` does.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has that id; then nothing changes.
    /// - Throws: every problem in the document, by field, or its lack of an `id`; nothing changes then.
    public func editMapping(_ json: Data) throws(StubFolderError) -> StubMapping? {
        let definition = try decode(json)
        guard let id = definition.loaded.id else {
            throw StubFolderError(errors: [StubFileDiagnostic(file: Self.requestBody, field: "id", message: "an edited stub needs the id of the stub it replaces")])
        }
        return insert(definition, id: id, replacing: true)
    }

    /// Registers every stub of WireMock's import document, `{"mappings": [...], "importOptions":
    /// {"duplicatePolicy": "OVERWRITE" or "IGNORE", "deleteAllNotInImport": false}}`, at once.
    ///
    /// - Returns: the mappings registered, in the order given.
    /// - Throws: every problem in every stub, by field; nothing changes then.
    @discardableResult
    public func importMappings(_ json: Data) throws(StubFolderError) -> [StubMapping] {
        let (folder, templatesEveryResponse) = contents.withLock { ($0.folder, $0.templatesEveryResponse) }
        let stubImport = try StubDocument.stubImport(json, source: Self.requestBody, folder: folder, templatesEveryResponse: templatesEveryResponse).get()
        let definitions = stubImport.definitions.map { (definition: $0, id: $0.loaded.id ?? Self.newID()) }
        let stubs = definitions.map { scenarioAware($0.definition.stub, for: $0.definition.route.route) }
        return contents.withLock { contents in
            if stubImport.removesOthers { contents.removeAll(restorable: true) }
            return zip(definitions, stubs).compactMap { entry, stub in
                if !stubImport.overwrites, contents.mapping(id: entry.id) != nil { return nil }
                return contents.insert(entry.definition.route, stub: stub, id: entry.id, origin: .adminAPI, json: entry.definition.json(id: entry.id))
            }
        }
    }

    private static let requestBody = "request body"

    private static func newID() -> String {
        UUID().uuidString.lowercased()
    }

    /// The stub in `json`, its `bodyFileName` looked up in the stubs folder loaded last.
    private func decode(_ json: Data) throws(StubFolderError) -> StubDefinition {
        let (folder, templatesEveryResponse) = contents.withLock { ($0.folder, $0.templatesEveryResponse) }
        return try StubDocument.stub(json, source: Self.requestBody, folder: folder, templatesEveryResponse: templatesEveryResponse).get()
    }

    /// Registers `definition` under `id`. When `replacing`, a registration with `id` must exist,
    /// and whether it does is decided under the lock, so that a removal at the same moment is not undone.
    private func insert(_ definition: StubDefinition, id: String, replacing: Bool) -> StubMapping? {
        let stub = scenarioAware(definition.stub, for: definition.route.route)
        return contents.withLock { contents in
            if replacing, contents.mapping(id: id) == nil { return nil }
            return contents.insert(definition.route, stub: stub, id: id, origin: .adminAPI, json: definition.json(id: id))
        }
    }

    /// Removes the registration `id`; ``resetMappings()`` brings it back if it came from code or a file.
    ///
    /// - Returns: the removed mapping, or `nil` when no registration has `id`.
    @discardableResult
    public func removeMapping(id: String) -> StubMapping? {
        contents.withLock { $0.remove(id: id) }
    }

    /// Removes the registration whose id the stub `json` gives or, when it gives none, every
    /// registration for the same route, as WireMock's `removeStub` does; ``resetMappings()``
    /// brings back those from code and files.
    ///
    /// - Returns: the removed mappings.
    /// - Throws: every problem in the document, by field; nothing changes then.
    @discardableResult
    public func removeMappings(like json: Data) throws(StubFolderError) -> [StubMapping] {
        let definition = try decode(json)
        return contents.withLock { contents in
            let ids = definition.loaded.id.map { [$0] } ?? contents.mappings.filter { $0.route == definition.route.route }.map(\.id)
            return ids.compactMap { contents.remove(id: $0) }
        }
    }

    /// The registrations whose `metadata` satisfies the matcher `json` gives, newest first, as
    /// WireMock's `findStubsByMetadata` finds them: `{"matchesJsonPath": {"expression": "$.team",
    /// "equalTo": "checkout"}}`.
    ///
    /// - Throws: what is wrong with the matcher.
    public func mappings(withMetadata json: Data) throws(StubFolderError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return mappings.filter { matcher.accepts($0.metadata) }
    }

    /// Removes the registrations ``mappings(withMetadata:)`` finds; ``resetMappings()`` brings back
    /// those from code and files.
    ///
    /// - Returns: the removed mappings.
    @discardableResult
    public func removeMappings(withMetadata json: Data) throws(StubFolderError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return contents.withLock { contents in
            contents.mappings.filter { matcher.accepts($0.metadata) }.compactMap { contents.remove(id: $0.id) }
        }
    }

    private static func metadataMatcher(_ json: Data) throws(StubFolderError) -> CompiledValueMatcher {
        let matcher = try StubDocument.valueMatcher(json, source: requestBody).get()
        do {
            return try CompiledValueMatcher(matcher) { RouteError(path: "metadata", reason: $0) }
        } catch {
            throw StubFolderError(errors: [StubFileDiagnostic(file: requestBody, message: error.reason)])
        }
    }

    /// Removes every registration; ``resetMappings()`` brings back those from code and files.
    public func removeAllMappings() {
        contents.withLock { $0.removeAll(restorable: true) }
    }

    /// Applies WireMock's global settings, `{"fixedDelay": 300}`: the ``defaultDelay``, in
    /// milliseconds, 0 for none.
    ///
    /// - Throws: what is wrong with the settings, or a setting Decoy does not have; nothing changes then.
    public func applySettings(_ json: Data) throws(StubFolderError) {
        defaultDelay = try StubDocument.globalDelay(json, source: Self.requestBody).get()
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
