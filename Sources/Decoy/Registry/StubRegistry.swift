public import DecoyClient
import Foundation

/// The default ``StubProvider``: stubs registered for routes or resources, with a journal.
///
/// Each registry is a world of its own: its stubs, its journal, its clock. Tests that run in
/// parallel each make their own and never see each other's.
///
/// ```swift
/// let registry = StubRegistry()
/// try registry.register(StubResponse(json: #"{"id": 42}"#), for: .get("/users/{id}"))
/// let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
/// ```
public final class StubRegistry: StubProvider {
    /// Every request served from this registry, in every serving.
    public let journal: RequestJournal
    /// Measures delays.
    public let clock: any Clock<Duration>
    /// Draws random delays.
    package let random: RandomSource
    /// The delay of every stub whose response sets none; a change reaches its engines at once,
    /// as WireMock's global fixed delay does.
    public var defaultDelay: Delay {
        get { defaultDelaySetting.value }
        set { defaultDelaySetting.value = newValue }
    }
    private let defaultDelaySetting: DelaySetting
    /// The TLS fault every request of the in-process servings fails with, as a `MockServer`'s
    /// HTTPS port with that fault fails every handshake; `nil`, the default, for none.
    public var tlsFault: TLSFault? {
        get { tlsFaultSetting.withLock { $0 } }
        set { tlsFaultSetting.withLock { $0 = newValue } }
    }
    private let tlsFaultSetting = Mutex<TLSFault?>(nil)
    /// The default delay the registry was made with, which ``resetSettings()`` brings back.
    private let initialDefaultDelay: Delay
    /// The transport and hosts of webhooks, shared with the engines.
    package let webhookSettings = WebhookSettings()
    /// What every response a ``ProxyStub`` of this registry brings back is checked with, before
    /// it goes on unchanged: `decoy serve --openapi` and `decoy record --openapi` or `--compare`
    /// set it; `nil`, the default, checks nothing.
    package var proxiedResponseCheck: ProxiedResponseCheck? {
        get { proxiedResponseCheckSetting.value }
        set { proxiedResponseCheckSetting.value = newValue }
    }
    private let proxiedResponseCheckSetting = ProxiedResponseCheckSetting()
    /// The message stubs its server serves to WebSockets.
    package let messageStubs = MessageStubStore()
    package let contents = Mutex(RegistryContents())
    let scenarios = ScenarioStates()

    /// Creates an empty registry.
    ///
    /// - Parameters:
    ///   - clock: measures stub delays; pass a test clock to control them.
    ///   - journalLimit: the most requests the journal keeps.
    ///   - seed: seeds random delays, for reproducible runs.
    ///   - defaultDelay: the delay of every stub whose response has ``Delay/none``, to make a whole
    ///     suite run against a slow API; unmatched requests are answered at once.
    public init(
        clock: any Clock<Duration> = ContinuousClock(), journalLimit: Int = 10_000, seed: UInt64? = nil,
        defaultDelay: Delay = .none
    ) {
        self.clock = clock
        self.journal = RequestJournal(limit: journalLimit)
        self.random = RandomSource(seed: seed)
        self.defaultDelaySetting = DelaySetting(defaultDelay)
        self.initialDefaultDelay = defaultDelay
    }

    /// Brings back the ``defaultDelay`` the registry was made with (`decoy serve --delay`), which
    /// the admin API's settings may have changed: what a test counts on between tests. WireMock's
    /// reset, ``reset()``, leaves it as it is.
    public func resetSettings() {
        defaultDelay = initialDefaultDelay
    }

    /// The engine that serves this registry's stubs and records into its journal.
    package var engine: StubEngine {
        StubEngine(
            provider: self, journal: journal, clock: clock, random: random, defaultDelay: defaultDelaySetting,
            webhookSender: WebhookSender(settings: webhookSettings), proxiedResponseCheck: proxiedResponseCheckSetting)
    }

    /// Registers `stub` for `route`; among routes that match, the lowest priority number wins, then the newest.
    @discardableResult
    public func register(_ stub: some Stub, for route: Route) throws(DecoyError) -> StubMapping {
        let pattern = try RequestPattern(route)
        let id = UUID().uuidString.lowercased()
        return contents.withLock { contents in
            contents.insert(
                pattern, stub: scenarioAware(stub, for: route), id: id, origin: .code,
                json: StubMappingJSON.forCode(route, stub: stub, id: id))
        }
    }

    /// `stub`, made to move its route's scenario on when it answers.
    package func scenarioAware(_ stub: any Stub, for route: Route) -> any Stub {
        guard let scenario = route.scenario, let newState = scenario.newState else { return stub }
        return ScenarioTransitionStub(stub: stub, scenario: scenario.name, newState: newState, states: scenarios)
    }

    /// Registers `stub` for the method, path and query of `resource`.
    @discardableResult
    public func register<Value>(_ stub: some Stub, for resource: Resource<Value>) throws(DecoyError) -> StubMapping {
        try register(stub, for: Route(resource))
    }

    /// Removes `mapping`, for good: unlike ``removeMapping(id:)``, which the admin API's resets
    /// undo, ``resetMappings()`` does not bring it back. Removing twice does nothing, and neither
    /// does removing a mapping another has replaced under its id.
    public func remove(_ mapping: StubMapping) {
        _ = contents.withLock { $0.remove(mapping.handle.number, restorable: false) }
    }

    /// Removes every registration; the journal stays.
    public func removeAll() {
        contents.withLock { $0.removeAll(restorable: false) }
    }

    /// The registered routes, oldest first.
    public var routes: [Route] {
        contents.withLock { $0.table.entries.map(\.pattern.route) }
    }

    /// The stub for `request`, found without scanning every route; when none matches, a `GET`
    /// is answered from the loaded folder's `__files/` if a file there fits its path, as in
    /// WireMock, and journaled as unmatched all the same.
    ///
    /// The lock is held only to take the table's snapshot, so a slow matcher holds up no other
    /// request.
    package func lookup(_ request: StubRequest) -> StubLookup {
        let found = contents.withLock { $0.tableForLookup() }.lookup(request, scenarios: scenarios)
        guard case .unmatched = found, let file = staticFile(for: request) else { return found }
        return .matched(StubMatch(stub: file, route: nil))
    }

    /// The stub that answers `request`, as ``lookup(_:)`` finds it; `nil` when none matches.
    public func stub(for request: StubRequest) -> (any Stub)? {
        guard case .matched(let match) = lookup(request) else { return nil }
        return match.stub
    }

    /// The current state of the scenario `name`; ``Route/scenarioStarted`` until a route moves it.
    public func scenarioState(_ name: String) -> String {
        scenarios.state(of: name)
    }

    /// Moves the scenario `name` to `state`, as a test setting up a later step does.
    public func setScenarioState(_ name: String, to state: String) {
        scenarios.set(name, to: state)
    }

    /// Puts every scenario back in ``Route/scenarioStarted``.
    public func resetScenarios() {
        scenarios.reset()
    }

    /// Checks the journal: the number of requests matching `route` must satisfy `count`.
    public func verify(_ route: Route, count: CallCount = .atLeast(1)) throws {
        try journal.verify(route, count: count)
    }
}

extension Route {
    /// The route a resource's requests take: its method, path and query items; of a whole URL
    /// for another host, its path and query, as a stub answers whichever host it is sent to.
    public init<Value>(_ resource: Resource<Value>) {
        let url = WholeURL(resource.path)
        let path = url.map { $0.path.isEmpty ? "/" : $0.path } ?? resource.path
        self.init(
            method: resource.method, path: path,
            matchers: ((url?.query ?? []) + resource.query).map { item in
                .query(item.name, item.value.map { .equalTo($0) } ?? .present)
            })
    }
}

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
