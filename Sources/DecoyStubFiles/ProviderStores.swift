package import Decoy
import DecoyClient
package import Foundation

// What the admin API and recording need of a provider beyond finding stubs, each a capability of
// its own: a server of a provider with it serves the endpoints, one without answers them `501`,
// naming the capability. `StubRegistry` has them all.

/// Registrations kept as WireMock's stub mappings: listed, added, replaced and removed as stub-file
/// JSON, and brought back by a reset; what the admin API's mapping endpoints, its stub summaries
/// and its serve events' stubs need.
package protocol StubMappingStore: StubProvider {
    /// Every registration, newest first.
    var mappings: [StubMapping] { get }
    /// The registration with `id`.
    func mapping(id: String) -> StubMapping?
    /// Removes the registration with `id`, and gives it.
    @discardableResult func removeMapping(id: String) -> StubMapping?
    /// Removes every registration.
    func removeAllMappings()
    /// Brings back the registrations from files and code, and only them.
    func resetMappings()
    /// Brings back the registrations from files and code, the scenarios' starting states and an
    /// empty journal: WireMock's reset.
    func reset()
    /// Registers the stub-file document `json`.
    @discardableResult func addMapping(_ json: Data) throws(DecoyError) -> StubMapping
    /// Replaces the registration with `id` by the stub-file document `json`.
    func replaceMapping(id: String, with json: Data) throws(DecoyError) -> StubMapping?
    /// Replaces the registration with the id of the stub-file document `json` by it.
    func editMapping(_ json: Data) throws(DecoyError) -> StubMapping?
    /// Registers every stub-file document of `json`'s `mappings`, all together or none.
    @discardableResult func importMappings(_ json: Data) throws(DecoyError) -> [StubMapping]
    /// Removes the registrations whose request is the one of the stub-file document `json`.
    @discardableResult func removeMappings(like json: Data) throws(DecoyError) -> [StubMapping]
    /// The registrations whose metadata satisfies the matcher in `json`.
    func mappings(withMetadata json: Data) throws(DecoyError) -> [StubMapping]
    /// Removes the registrations whose metadata satisfies the matcher in `json`.
    @discardableResult func removeMappings(withMetadata json: Data) throws(DecoyError) -> [StubMapping]
    /// Writes the registrations not from files into the stubs folder.
    @discardableResult func saveMappings() throws(DecoyError) -> [URL]
    /// What loading the stubs folder found, as `GET /__admin/stub-files` lists it; `nil` when no
    /// folder was loaded.
    var stubFilesReport: (any Encodable & Sendable)? { get }
}

/// Scenarios whose state the admin API lists, sets and resets.
package protocol ScenarioStore: StubProvider {
    /// Each scenario some stub takes part in, with its state and the states its stubs name.
    var scenarioSummaries: [ScenarioSummary] { get }
    /// Moves the scenario `name` to `state`.
    func setScenarioState(_ name: String, to state: String)
    /// Moves every scenario back to its starting state.
    func resetScenarios()
}

/// WireMock's global settings, of which Decoy has the fixed delay.
package protocol SettingsStore: StubProvider {
    /// The delay of every stub whose response sets none.
    var defaultDelay: Delay { get }
    /// Brings back the settings the provider was made with.
    func resetSettings()
    /// Applies WireMock's settings document `json`.
    func applySettings(_ json: Data) throws(DecoyError)
}

/// What a ``Recorder`` needs: a table to put its proxy and the recorded stubs into, the journal
/// the proxied answers are read back from, and the stubs folder they may be written to.
package protocol RecordingStore: StubMappingStore {
    /// The journal of every request the provider's engine answered.
    var journal: RequestJournal { get }
    /// The loaded stubs folder; `nil` when none was.
    var stubsFolder: URL? { get }
    /// Registers `stub` for `route`.
    @discardableResult func register(_ stub: some Stub, for route: Route) throws(DecoyError) -> StubMapping
    /// Removes the registration `mapping`.
    func remove(_ mapping: StubMapping)
    /// Loads `folder` again in place of the stubs it loaded before.
    @discardableResult func reload(folder: URL, strict: Bool) throws(DecoyError) -> StubFolderReport
}

extension StubRegistry: StubMappingStore, ScenarioStore, SettingsStore, RecordingStore {
    /// What loading the stubs folder found; `nil` when no folder was loaded.
    package var stubFilesReport: (any Encodable & Sendable)? { contents.withLock(\.folderReport) }
    /// The loaded stubs folder; `nil` when none was.
    package var stubsFolder: URL? { contents.withLock(\.folder) }
}
