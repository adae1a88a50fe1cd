public import Decoy
public import Foundation

/// Managing stubs by id with stub-file documents, as the admin API does: what WireMock's clients
/// send is read by the stub-file decoders. Stubs added this way are temporary:
/// ``Decoy/StubRegistry/resetMappings()`` removes them.
extension StubRegistry {
    /// Registers the stub `json` describes, in the stub-file format; a stub with the same `id`
    /// is replaced. `bodyFileName`s are looked up in the stubs folder loaded last.
    ///
    /// - Throws: every problem in the document, by field; nothing is registered then.
    @discardableResult
    public func addMapping(_ json: Data) throws(StubFileError) -> StubMapping {
        let definition = try decode(json)
        // Without an id to replace, there is always a mapping.
        return insert(definition, id: definition.loaded.id ?? Self.newID(), replacing: false)!
    }

    /// Replaces the registration `id` with the stub `json` describes, keeping the id.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has `id`; then nothing changes.
    /// - Throws: every problem in the document, by field; nothing changes then.
    public func replaceMapping(id: String, with json: Data) throws(StubFileError) -> StubMapping? {
        insert(try decode(json), id: id, replacing: true)
    }

    /// Replaces the registration whose id the stub `json` gives with that stub, as WireMock's
    /// `editStub` does.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has that id; then nothing changes.
    /// - Throws: every problem in the document, by field, or its lack of an `id`; nothing changes then.
    public func editMapping(_ json: Data) throws(StubFileError) -> StubMapping? {
        let definition = try decode(json)
        guard let id = definition.loaded.id else {
            throw StubFileError(errors: [
                StubFileDiagnostic(
                    file: Self.requestBody, field: "id", message: "an edited stub needs the id of the stub it replaces")
            ])
        }
        return insert(definition, id: id, replacing: true)
    }

    /// Registers every stub of WireMock's import document, `{"mappings": [...], "importOptions":
    /// {"duplicatePolicy": "OVERWRITE" or "IGNORE", "deleteAllNotInImport": false}}`, at once.
    ///
    /// - Returns: the mappings registered, in the order given.
    /// - Throws: every problem in every stub, by field; nothing changes then.
    @discardableResult
    public func importMappings(_ json: Data) throws(StubFileError) -> [StubMapping] {
        let (folder, templatesEveryResponse) = contents.withLock { ($0.folder, $0.templatesEveryResponse) }
        let stubImport = try StubDocument.stubImport(
            json, source: Self.requestBody, folder: folder, templatesEveryResponse: templatesEveryResponse,
            webhookAllowedHosts: webhookAllowedHosts
        ).get()
        let definitions = stubImport.definitions.map { (definition: $0, id: $0.loaded.id ?? Self.newID()) }
        let stubs = definitions.map { scenarioAware($0.definition.stub, for: $0.definition.pattern.route) }
        return contents.withLock { contents in
            if stubImport.removesOthers { contents.removeAll(restorable: true) }
            return zip(definitions, stubs).compactMap { entry, stub in
                if !stubImport.overwrites, contents.mapping(id: entry.id) != nil { return nil }
                return contents.insert(
                    entry.definition.pattern, stub: stub, id: entry.id, origin: .adminAPI,
                    json: entry.definition.json(id: entry.id))
            }
        }
    }

    private static let requestBody = "request body"

    private static func newID() -> String {
        UUID().uuidString.lowercased()
    }

    /// The stub in `json`, its `bodyFileName` looked up in the stubs folder loaded last.
    private func decode(_ json: Data) throws(StubFileError) -> StubDefinition {
        let (folder, templatesEveryResponse) = contents.withLock { ($0.folder, $0.templatesEveryResponse) }
        return try StubDocument.stub(
            json, source: Self.requestBody, folder: folder, templatesEveryResponse: templatesEveryResponse,
            webhookAllowedHosts: webhookAllowedHosts
        ).get()
    }

    /// Registers `definition` under `id`. When `replacing`, a registration with `id` must exist,
    /// and whether it does is decided under the lock, so that a removal at the same moment is not undone.
    private func insert(_ definition: StubDefinition, id: String, replacing: Bool) -> StubMapping? {
        let stub = scenarioAware(definition.stub, for: definition.pattern.route)
        return contents.withLock { contents in
            if replacing, contents.mapping(id: id) == nil { return nil }
            return contents.insert(
                definition.pattern, stub: stub, id: id, origin: .adminAPI, json: definition.json(id: id))
        }
    }

    /// Removes the registration whose id the stub `json` gives or, when it gives none, every
    /// registration for the same route, as WireMock's `removeStub` does; ``resetMappings()``
    /// brings back those from code and files.
    ///
    /// - Returns: the removed mappings.
    /// - Throws: every problem in the document, by field; nothing changes then.
    @discardableResult
    public func removeMappings(like json: Data) throws(StubFileError) -> [StubMapping] {
        let definition = try decode(json)
        // The same route whatever its webhooks, which say what follows an answer, not what is answered.
        func answering(_ route: Route) -> Route {
            var route = route
            route.webhooks = []
            return route
        }
        let route = answering(definition.pattern.route)
        return contents.withLock { contents in
            let ids =
                definition.loaded.id.map { [$0] }
                ?? contents.mappings.filter { answering($0.route) == route }.map(\.id)
            return ids.compactMap { contents.remove(id: $0) }
        }
    }

    /// The registrations whose `metadata` satisfies the matcher `json` gives, newest first, as
    /// WireMock's `findStubsByMetadata` finds them: `{"matchesJsonPath": {"expression": "$.team",
    /// "equalTo": "checkout"}}`.
    ///
    /// - Throws: what is wrong with the matcher.
    public func mappings(withMetadata json: Data) throws(StubFileError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return mappings.filter { matcher($0) }
    }

    /// Removes the registrations ``mappings(withMetadata:)`` finds; ``resetMappings()`` brings back
    /// those from code and files.
    ///
    /// - Returns: the removed mappings.
    @discardableResult
    public func removeMappings(withMetadata json: Data) throws(StubFileError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return contents.withLock { contents in
            contents.mappings.filter { matcher($0) }.compactMap { contents.remove(id: $0.id) }
        }
    }

    private static func metadataMatcher(_ json: Data) throws(StubFileError) -> @Sendable (StubMapping) -> Bool {
        let matcher = try StubDocument.valueMatcher(json, source: requestBody).get()
        do {
            return try matcher.metadataTest()
        } catch {
            throw StubFileError(errors: [StubFileDiagnostic(file: requestBody, message: error.reason)])
        }
    }

    /// Applies WireMock's global settings, `{"fixedDelay": 300}`: the ``defaultDelay``, in
    /// milliseconds, 0 for none.
    ///
    /// - Throws: what is wrong with the settings, or a setting Decoy does not have; nothing changes then.
    public func applySettings(_ json: Data) throws(StubFileError) {
        defaultDelay = try StubDocument.globalDelay(json, source: Self.requestBody).get()
    }
}
