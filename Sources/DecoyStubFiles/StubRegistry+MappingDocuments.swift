public import Decoy
import DecoyClient
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
    public func addMapping(_ json: Data) throws(DecoyError) -> StubMapping {
        let definition = try decode(json)
        // Without an id to replace, there is always a mapping.
        return insert(definition, replacing: false)!
    }

    /// Replaces the registration `id` with the stub `json` describes, keeping the id.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has `id`; then nothing changes.
    /// - Throws: every problem in the document, by field; nothing changes then.
    public func replaceMapping(id: String, with json: Data) throws(DecoyError) -> StubMapping? {
        insert(try decode(json, id: id), replacing: true)
    }

    /// Replaces the registration whose id the stub `json` gives with that stub, as WireMock's
    /// `editStub` does.
    ///
    /// - Returns: the new mapping, or `nil` when no registration has that id; then nothing changes.
    /// - Throws: every problem in the document, by field, or its lack of an `id`; nothing changes then.
    public func editMapping(_ json: Data) throws(DecoyError) -> StubMapping? {
        let definition = try decode(json)
        guard definition.loaded.id != nil else {
            throw DecoyError.invalidStubFiles([
                StubFileDiagnostic(
                    file: Self.requestBody, field: "id", message: "an edited stub needs the id of the stub it replaces")
            ])
        }
        return insert(definition, replacing: true)
    }

    /// Registers every stub of WireMock's import document, `{"mappings": [...], "importOptions":
    /// {"duplicatePolicy": "OVERWRITE" or "IGNORE", "deleteAllNotInImport": false}}`, at once.
    ///
    /// - Returns: the mappings registered, in the order given.
    /// - Throws: every problem in every stub, by field; nothing changes then.
    @discardableResult
    public func importMappings(_ json: Data) throws(DecoyError) -> [StubMapping] {
        let (folder, options) = documentContext
        let stubImport = try StubDocument.stubImport(
            json, source: Self.requestBody, folder: folder, options: options
        ).get()
        let definitions = stubImport.definitions
        let stubs = definitions.map { scenarioAware($0.stub, for: $0.pattern.route) }
        return contents.withLock { contents in
            if stubImport.removesOthers { contents.removeAll(restorable: true) }
            return zip(definitions, stubs).compactMap { definition, stub in
                if !stubImport.overwrites, contents.mapping(id: definition.id) != nil { return nil }
                return contents.insert(
                    definition.pattern, stub: stub, id: definition.id, origin: .adminAPI, json: definition.json)
            }
        }
    }

    private static let requestBody = "request body"

    /// The folder loaded last, where body files are looked up, and how stub documents are read.
    var documentContext: (folder: URL?, options: StubFileOptions) {
        var (folder, options) = contents.withLock { ($0.folder, $0.fileOptions) }
        options.webhookAllowedHosts = webhookAllowedHosts
        return (folder, options)
    }

    /// The stub in `json`, registered as `id` when given, its `bodyFileName` looked up in the
    /// stubs folder loaded last.
    private func decode(_ json: Data, id: String? = nil) throws(DecoyError) -> StubDefinition {
        let (folder, options) = documentContext
        return try StubDocument.stub(json, source: Self.requestBody, folder: folder, options: options, id: id).get()
    }

    /// Registers `definition` under its id. When `replacing`, a registration with that id must
    /// exist, and whether it does is decided under the lock, so that a removal at the same moment
    /// is not undone.
    private func insert(_ definition: StubDefinition, replacing: Bool) -> StubMapping? {
        let stub = scenarioAware(definition.stub, for: definition.pattern.route)
        return contents.withLock { contents in
            if replacing, contents.mapping(id: definition.id) == nil { return nil }
            return contents.insert(
                definition.pattern, stub: stub, id: definition.id, origin: .adminAPI, json: definition.json)
        }
    }

    /// Removes the registration whose id the stub `json` gives or, when it gives none or one that
    /// no registration has, every registration for the same request pattern, as WireMock's
    /// `removeStub` does (its Java client sends a new id with the pattern); ``resetMappings()``
    /// brings back those from code and files.
    ///
    /// - Returns: the removed mappings.
    /// - Throws: every problem in the document, by field; nothing changes then.
    @discardableResult
    public func removeMappings(like json: Data) throws(DecoyError) -> [StubMapping] {
        let definition = try decode(json)
        // The same route whatever its webhooks, which say what follows an answer, not what is answered.
        func withoutWebhooks(_ route: Route) -> Route {
            var route = route
            route.webhooks = []
            return route
        }
        let route = withoutWebhooks(definition.pattern.route)
        return contents.withLock { contents in
            let ids =
                definition.loaded.id.flatMap { contents.mapping(id: $0) == nil ? nil : [$0] }
                ?? contents.mappings.filter { withoutWebhooks($0.route) == route }.map(\.id)
            return ids.compactMap { contents.remove(id: $0) }
        }
    }

    /// The registrations whose `metadata` satisfies the matcher `json` gives, newest first, as
    /// WireMock's `findStubsByMetadata` finds them: `{"matchesJsonPath": {"expression": "$.team",
    /// "equalTo": "checkout"}}`.
    ///
    /// - Throws: what is wrong with the matcher.
    public func mappings(withMetadata json: Data) throws(DecoyError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return mappings.filter { matcher($0) }
    }

    /// Removes the registrations ``mappings(withMetadata:)`` finds; ``resetMappings()`` brings back
    /// those from code and files.
    ///
    /// - Returns: the removed mappings.
    @discardableResult
    public func removeMappings(withMetadata json: Data) throws(DecoyError) -> [StubMapping] {
        let matcher = try Self.metadataMatcher(json)
        return contents.withLock { contents in
            contents.mappings.filter { matcher($0) }.compactMap { contents.remove(id: $0.id) }
        }
    }

    private static func metadataMatcher(_ json: Data) throws(DecoyError) -> @Sendable (StubMapping) -> Bool {
        let matcher = try StubDocument.valueMatcher(json, source: requestBody).get()
        do {
            return try matcher.metadataTest()
        } catch {
            throw DecoyError.invalidStubFiles([StubFileDiagnostic(file: requestBody, message: error.reason)])
        }
    }

    /// Applies WireMock's global settings, `{"fixedDelay": 300}`: the ``defaultDelay``, in
    /// milliseconds, 0 for none.
    ///
    /// - Throws: what is wrong with the settings, or a setting Decoy does not have; nothing changes then.
    public func applySettings(_ json: Data) throws(DecoyError) {
        defaultDelay = try StubDocument.globalDelay(json, source: Self.requestBody).get()
    }
}
