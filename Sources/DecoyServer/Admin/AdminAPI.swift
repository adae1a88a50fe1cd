import Decoy
import DecoyClient
import DecoyStubFiles
import Foundation
import HTTPTypes

/// The admin API under `/__admin`: WireMock's endpoints for stubs, the journal, scenarios and
/// resets, so that WireMock's own client libraries can drive a ``MockServer``.
///
/// The daemon hands admin requests to a task, off its threads, so that a long listing holds up
/// no stub's traffic; they are neither matched against stubs nor journaled. See `docs/admin-api.md`.
struct AdminAPI: Sendable {
    static let prefix = "/__admin"

    let engine: StubEngine
    let access: MockServer.AdminAccess
    /// The server's recorder, for WireMock's recordings; `nil` when it serves no ``StubRegistry``.
    let recorder: Recorder?
    let started = Date()

    /// The stubs the mapping endpoints manage; only a ``StubRegistry`` has them.
    private var registry: StubRegistry? { engine.provider as? StubRegistry }

    /// Whether `target` is for the admin API rather than the stubs.
    func handles(_ target: String) -> Bool {
        guard access != .off, target.utf8.starts(with: Self.prefix.utf8) else { return false }
        let rest = target.utf8.dropFirst(Self.prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/") || rest.first == UInt8(ascii: "?")
    }

    /// The answer to an admin request: a reply, or the live feed of `GET /__admin/events`, which
    /// goes on for as long as its client stays.
    func answer(_ request: StubRequest, baseURL: String) -> Reply {
        if request.method == .get, request.path == Self.prefix + "/events", isAuthorized(request) {
            return JournalFeed.answer(engine.journal, events: { serveEvents($0, baseURL: baseURL) })
        }
        return .whole(reply(to: request, baseURL: baseURL))
    }

    /// Whether `request` carries the token, when one is needed.
    private func isAuthorized(_ request: StubRequest) -> Bool {
        guard case .token(let token) = access else { return true }
        return Self.sameBytes(request.headerFields[.authorization] ?? "", "Bearer \(token)")
    }

    /// The JSON answer to an admin request, or one of the dashboard's files.
    func reply(to request: StubRequest, baseURL: String) -> StubResponse {
        let path = request.path.dropFirst(Self.prefix.count).split(separator: "/").map(String.init)
        let endpoint = path.joined(separator: "/")
        // The dashboard's files hold no data: the page asks for the token and sends it with every call it makes.
        if request.method == .get, let file = DashboardPage.files[endpoint] { return file }
        guard isAuthorized(request) else {
            return AdminReply.error(.unauthorized, "The admin API needs the header Authorization: Bearer <token>.")
        }
        switch (request.method, endpoint) {
        case (.get, "health"): return health()
        case (.get, "stub-summaries"): return withRegistry(request) { stubSummaries($0, request) }
        case (.get, "mappings"): return withRegistry(request) { mappings($0, request) }
        case (.post, "mappings"), (.post, "mappings/new"): return withRegistry(request) { add($0, request.body) }
        case (.delete, "mappings"):
            return withRegistry(request) {
                $0.removeAllMappings(); return AdminReply.ok
            }
        case (.post, "mappings/reset"):
            return withRegistry(request) {
                $0.resetMappings(); return AdminReply.ok
            }
        case (.post, "mappings/edit"): return withRegistry(request) { edit($0, request.body) }
        case (.post, "mappings/remove"):
            return changing(request) { (registry) throws(DecoyError) in
                try registry.removeMappings(like: request.body)
            }
        case (.post, "mappings/import"):
            return changing(request) { (registry) throws(DecoyError) in try registry.importMappings(request.body) }
        case (.post, "mappings/save"):
            return changing(request) { (registry) throws(DecoyError) in try registry.saveMappings() }
        case (.post, "mappings/find-by-metadata"): return withRegistry(request) { findByMetadata($0, request.body) }
        case (.post, "mappings/remove-by-metadata"):
            return changing(request) { (registry) throws(DecoyError) in
                try registry.removeMappings(withMetadata: request.body)
            }
        case (.get, "stub-files"): return withRegistry(request, stubFiles)
        case (.get, "settings"): return withRegistry(request, settings)
        case (.post, "settings/reset"):
            return withRegistry(request) {
                $0.resetSettings(); return AdminReply.ok
            }
        case (.post, "settings"), (.put, "settings"):
            return changing(request) { (registry) throws(DecoyError) in try registry.applySettings(request.body) }
        case (.get, "requests"): return requests(request, baseURL: baseURL)
        case (.delete, "requests"), (.post, "requests/reset"): engine.journal.reset(); return AdminReply.ok
        case (.post, "requests/count"): return matching(request.body) { AdminReply.encoded(["count": $0.count]) }
        case (.post, "requests/find"): return matching(request.body) { found($0, baseURL: baseURL) }
        case (.post, "requests/remove"): return removeRequests(request.body, baseURL: baseURL)
        case (.post, "requests/remove-by-metadata"):
            return withRegistry(request) { removeRequests($0, byMetadata: request.body, baseURL: baseURL) }
        case (.get, "requests/unmatched"): return found(engine.journal.unmatchedEntries, baseURL: baseURL)
        case (.get, "requests/unmatched/near-misses"): return unmatchedNearMisses(baseURL: baseURL)
        case (.post, "near-misses/request"): return nearMisses(toRequest: request.body, baseURL: baseURL)
        case (.post, "near-misses/request-pattern"): return nearMisses(toPattern: request.body, baseURL: baseURL)
        case (.post, "reset"):
            return withRegistry(request) {
                $0.reset(); return AdminReply.ok
            }
        case (.get, "scenarios"): return withRegistry(request, scenarios)
        case (.post, "scenarios/reset"):
            return withRegistry(request) {
                $0.resetScenarios(); return AdminReply.ok
            }
        case (.put, _) where path.count == 3 && path[0] == "scenarios" && path[2] == "state":
            return withRegistry(request) { setState($0, scenario: path[1], request.body) }
        case (_, let endpoint) where path.first == "recordings":
            return recorder.map { recordings($0, request, endpoint: endpoint) } ?? withoutRegistry(request)
        case (let method, _) where path.count == 2 && path[0] == "mappings" && [.get, .put, .delete].contains(method):
            return withRegistry(request) { mapping($0, id: path[1], request) }
        case (.get, _) where path.count == 3 && path[0] == "requests" && path[2] == "near-misses":
            return nearMisses(ofRequest: path[1], baseURL: baseURL)
        case (let method, _) where path.count == 2 && path[0] == "requests" && [.get, .delete].contains(method):
            return servedRequest(id: path[1], removing: method == .delete, baseURL: baseURL)
        case (_, let endpoint) where Self.endpoints.contains(endpoint) || (path.count == 2 && path[0] == "mappings"):
            return AdminReply.error(
                .methodNotAllowed, "\(request.method) \(request.path) is not an admin endpoint; see docs/admin-api.md.")
        case (_, let endpoint):
            if let reason = Self.unserved.first(where: { endpoint == $0.key || endpoint.hasPrefix($0.key + "/") })?
                .value
            {
                return AdminReply.error(
                    .notImplemented,
                    "Decoy does not serve \(request.method) \(request.path): \(reason). See docs/admin-api.md.")
            }
            return AdminReply.error(.notFound, "\(request.path) is not an admin endpoint; see docs/admin-api.md.")
        }
    }

    /// WireMock's endpoints that Decoy answers with `501` and why, so that a client sees a reason
    /// rather than a missing endpoint.
    private static let unserved = [
        "shutdown": "stop decoy serve with SIGINT or SIGTERM, or MockServer with stop()",
        "files": "body files live in the stubs folder's __files; change them there",
    ]

    private static let endpoints: Set = [
        "health", "dashboard", "dashboard/app.js", "dashboard/app.css", "events", "stub-summaries",
        "mappings", "mappings/new", "mappings/reset", "mappings/edit", "mappings/remove", "mappings/import",
        "mappings/save", "mappings/find-by-metadata", "mappings/remove-by-metadata", "stub-files", "settings",
        "settings/reset", "requests",
        "requests/remove", "requests/remove-by-metadata", "requests/count", "requests/find", "requests/unmatched",
        "requests/reset",
        "requests/unmatched/near-misses", "near-misses/request", "near-misses/request-pattern",
        "reset", "scenarios", "scenarios/reset",
    ]

    /// Compares every byte whatever the first difference, so that the time taken tells nothing of the token.
    private static func sameBytes(_ given: String, _ expected: String) -> Bool {
        let (given, expected) = (Array(given.utf8), Array(expected.utf8))
        return given.count == expected.count && zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The query parameter `name` as a whole number, `nil` when absent.
    static func wholeNumber(_ name: String, in request: StubRequest) throws(AdminRejection) -> Int? {
        guard let text = request.queryValues(name).first else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw AdminRejection(
                reply: AdminReply.error(.badRequest, "\(name): expected a whole number, found \"\(text)\"."))
        }
        return number
    }

    /// A request refused with `reply`.
    struct AdminRejection: Error {
        let reply: StubResponse
    }

    /// `body`'s answer when the server serves a ``StubRegistry``; otherwise `501`, naming the
    /// request and the provider: a custom ``StubProvider`` only looks stubs up, so the admin API
    /// has no stubs, scenarios or settings of it to list or change, while the request journal,
    /// which the engine keeps, is there as with any provider.
    func withRegistry(_ request: StubRequest, _ body: (StubRegistry) -> StubResponse) -> StubResponse {
        guard let registry else { return withoutRegistry(request) }
        return body(registry)
    }

    /// The `501` for what only a ``StubRegistry`` has, on a server of another provider.
    private func withoutRegistry(_ request: StubRequest) -> StubResponse {
        AdminReply.error(
            .notImplemented,
            """
            Decoy cannot serve \(request.method) \(request.path) here: this server serves a custom StubProvider \
            (\(type(of: engine.provider))), which has no stub mappings, scenarios or settings to list or change; only \
            a StubRegistry has them. The request journal endpoints work with any provider.
            """)
    }

    /// `{}` once `change` is made to the registry; its refusal, by field, when it throws.
    private func changing(_ request: StubRequest, _ change: (StubRegistry) throws(DecoyError) -> Void)
        -> StubResponse
    {
        withRegistry(request) { registry in
            do throws(DecoyError) {
                try change(registry)
                return AdminReply.ok
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    private func health() -> StubResponse {
        let uptime = Int(Date().timeIntervalSince(started))
        return AdminReply.encoded(Health(uptimeInSeconds: uptime, timestamp: Date().formatted(.iso8601)))
    }

    /// WireMock 3's health answer.
    private struct Health: Encodable {
        let status = "healthy"
        let message = "Decoy is ok"
        let uptimeInSeconds: Int
        let timestamp: String
    }

    // MARK: Mappings

    /// A list of mappings, as `GET /__admin/mappings` gives it.
    private struct MappingsPage: Encodable {
        let mappings: [JSONValue]
        let meta: AdminListMeta

        init(_ mappings: some Sequence<StubMapping>, total: Int) {
            self.mappings = mappings.map(\.document)
            meta = AdminListMeta(total: total)
        }
    }

    /// Newest first, with WireMock's `limit` and `offset`.
    private func mappings(_ registry: StubRegistry, _ request: StubRequest) -> StubResponse {
        let all = registry.mappings
        let offset: Int?
        let limit: Int?
        do {
            (offset, limit) = (try Self.wholeNumber("offset", in: request), try Self.wholeNumber("limit", in: request))
        } catch {
            return error.reply
        }
        let page = all.dropFirst(offset ?? 0).prefix(limit ?? all.count)
        return AdminReply.encoded(MappingsPage(page, total: all.count))
    }

    private func add(_ registry: StubRegistry, _ body: Data) -> StubResponse {
        do {
            return AdminReply.json(try registry.addMapping(body).json, status: .created)
        } catch {
            return AdminReply.invalid(error)
        }
    }

    /// WireMock's `editStub`: the stub in `body` replaces the one with its id.
    private func edit(_ registry: StubRegistry, _ body: Data) -> StubResponse {
        do {
            guard let mapping = try registry.editMapping(body) else {
                return AdminReply.error(.notFound, "No stub mapping has the id of the edited stub.")
            }
            return AdminReply.json(mapping.json)
        } catch {
            return AdminReply.invalid(error)
        }
    }

    private func findByMetadata(_ registry: StubRegistry, _ body: Data) -> StubResponse {
        do {
            let found = try registry.mappings(withMetadata: body)
            return AdminReply.encoded(MappingsPage(found, total: found.count))
        } catch {
            return AdminReply.invalid(error)
        }
    }

    // MARK: Stub files

    /// What loading the stubs folder found: how many stubs serve, each refused one with every
    /// problem, and the warnings. Decoy's own: WireMock refuses a folder with a broken file whole.
    private func stubFiles(_ registry: StubRegistry) -> StubResponse {
        guard let report = registry.contents.withLock(\.folderReport) else {
            return AdminReply.error(.notFound, "No stubs folder was loaded.")
        }
        return AdminReply.encoded(report)
    }

    // MARK: Settings

    /// WireMock's global settings: Decoy has the fixed delay, its registry's default delay.
    private func settings(_ registry: StubRegistry) -> StubResponse {
        let fixedDelay: Int? =
            switch registry.defaultDelay {
            case .none: 0
            case .fixed(let duration): Int(duration / .milliseconds(1))
            default: nil
            }
        return AdminReply.encoded(["settings": ["fixedDelay": fixedDelay]])
    }

    /// `GET`, `PUT` or `DELETE` of the mapping `id`.
    private func mapping(_ registry: StubRegistry, id: String, _ request: StubRequest) -> StubResponse {
        do {
            let mapping =
                switch request.method {
                case .get: registry.mapping(id: id)
                case .put: try registry.replaceMapping(id: id, with: request.body)
                default: registry.removeMapping(id: id)
                }
            guard let mapping else { return AdminReply.error(.notFound, "No stub mapping has the id \"\(id)\".") }
            return request.method == .delete ? AdminReply.ok : AdminReply.json(mapping.json)
        } catch {
            return AdminReply.invalid(error)
        }
    }

    // MARK: Requests

    /// Newest first, with WireMock's `limit` and `since` (an ISO 8601 time), and Decoy's `offset`
    /// and filters (``JournalFilter``), with which the dashboard pages through a long journal.
    private func requests(_ request: StubRequest, baseURL: String) -> StubResponse {
        let filter: JournalFilter
        let offset: Int
        let limit: Int?
        do {
            filter = try JournalFilter(request)
            (offset, limit) = (
                try Self.wholeNumber("offset", in: request) ?? 0, try Self.wholeNumber("limit", in: request)
            )
        } catch {
            return error.reply
        }
        var since: Date?
        if let text = request.queryValues("since").first {
            guard let date = Self.date(text) else {
                return AdminReply.error(
                    .badRequest, "since: expected an ISO 8601 time such as 2026-11-21T10:00:00Z, found \"\(text)\".")
            }
            since = date
        }
        let page = engine.journal.entries.reversed().lazy
            .filter { entry in (since.map { entry.date > $0 } ?? true) && filter.admits(entry) }
            .dropFirst(offset).prefix(limit ?? .max)
        return AdminReply.encoded(
            ServeEvent.Page(requests: serveEvents(Array(page), baseURL: baseURL), total: engine.journal.totalCount))
    }

    /// `entries` as WireMock's serve events, each with the stub that answered it.
    func serveEvents(_ entries: [JournalEntry], baseURL: String) -> [ServeEvent] {
        let routes = Set(entries.compactMap(\.route))
        var answering: [Route: StubMapping] = [:]
        if !routes.isEmpty {
            // Most routes are found by the identity of the registration that answered, a pointer
            // each, rather than by hashing every field of thousands of routes; one replaced since
            // is found by its fields.
            let identities = Set(routes.map(\.identity))
            let all = registry?.mappings ?? []
            for mapping in all where identities.contains(mapping.route.identity) {
                answering[mapping.route] = answering[mapping.route] ?? mapping
            }
            if answering.count < routes.count {
                let missing = routes.subtracting(answering.keys)
                for mapping in all where missing.contains(mapping.route) {
                    answering[mapping.route] = answering[mapping.route] ?? mapping
                }
            }
        }
        // Only the mappings these entries name are read as JSON: a registry may hold thousands.
        let mappings = answering.mapValues(\.document)
        return entries.map { ServeEvent($0, baseURL: baseURL, mappings: mappings) }
    }

    /// Each route's registration, the newest where routes are equal: the one that answers them.
    func mappingsByRoute() -> [Route: StubMapping] {
        Dictionary((registry?.mappings ?? []).map { ($0.route, $0) }) { newest, _ in newest }
    }

    private struct FoundRequests: Encodable {
        let requests: [ServedRequest]
    }

    private func found(_ entries: [JournalEntry], baseURL: String) -> StubResponse {
        AdminReply.encoded(FoundRequests(requests: entries.map { ServedRequest($0, baseURL: baseURL) }))
    }

    /// One served request by its id, as a serve event; `removing` forgets it too.
    private func servedRequest(id: String, removing: Bool, baseURL: String) -> StubResponse {
        let isIt = { (entry: JournalEntry) in ServedRequest.id(of: entry) == id }
        guard
            let entry = removing ? engine.journal.remove(where: isIt).first : engine.journal.entries.first(where: isIt)
        else {
            return AdminReply.error(.notFound, "No request in the journal has the id \"\(id)\".")
        }
        return removing ? AdminReply.ok : AdminReply.encoded(serveEvents([entry], baseURL: baseURL)[0])
    }

    /// WireMock's `removeServeEvents`: forgets the requests matching the pattern in `body` and lists them.
    private func removeRequests(_ body: Data, baseURL: String) -> StubResponse {
        do {
            let removed = engine.journal.remove(matching: try Self.pattern(body))
            return AdminReply.encoded(["serveEvents": serveEvents(removed, baseURL: baseURL)])
        } catch {
            return AdminReply.invalid(error)
        }
    }

    /// WireMock's `removeEventsByStubMetadata`: forgets the requests answered by stubs whose metadata
    /// satisfies the matcher in `body`, and lists them.
    private func removeRequests(_ registry: StubRegistry, byMetadata body: Data, baseURL: String) -> StubResponse {
        do {
            let routes = Set(try registry.mappings(withMetadata: body).map(\.route))
            let removed = engine.journal.remove { $0.route.map(routes.contains) ?? false }
            return AdminReply.encoded(["serveEvents": serveEvents(removed, baseURL: baseURL)])
        } catch {
            return AdminReply.invalid(error)
        }
    }

    // MARK: Near misses

    /// For each request no stub matched, the stubs it nearly matched as they are registered now.
    private func unmatchedNearMisses(baseURL: String) -> StubResponse {
        let mappings = mappingsByRoute().mapValues(\.document)
        let misses = engine.journal.unmatchedEntries.flatMap { entry in
            NearMisses.stubs(
                nearlyMatching: ServedRequest(entry, baseURL: baseURL), entry.request, engine: engine,
                mappings: mappings)
        }
        return AdminReply.encoded(NearMisses(nearMisses: misses))
    }

    /// The stubs the request in `body`, in WireMock's logged-request shape, nearly matches.
    private func nearMisses(toRequest body: Data, baseURL: String) -> StubResponse {
        let logged: LoggedRequest
        do {
            logged = try JSONDecoder().decode(LoggedRequest.self, from: body)
        } catch {
            return AdminReply.error(.unprocessableContent, "Expected a request with url and method: \(error)")
        }
        guard let request = logged.stubRequest else {
            return AdminReply.error(.unprocessableContent, "The request's method or a header name is not valid HTTP.")
        }
        let served = ServedRequest(request, id: UUID().uuidString.lowercased(), date: Date(), baseURL: baseURL)
        return AdminReply.encoded(
            NearMisses(
                nearMisses: NearMisses.stubs(
                    nearlyMatching: served, request, engine: engine, mappings: mappingsByRoute().mapValues(\.document)))
        )
    }

    /// The received requests that nearly match the request pattern in `body`: what WireMock's
    /// clients show when a `verify` fails.
    private func nearMisses(toPattern body: Data, baseURL: String) -> StubResponse {
        do {
            let pattern = try Self.pattern(body)
            let misses = NearMisses.requests(
                nearlyMatching: pattern, document: JSONValue(parsing: body), in: engine.journal.entries,
                baseURL: baseURL)
            return AdminReply.encoded(NearMisses(nearMisses: misses))
        } catch {
            return AdminReply.invalid(error)
        }
    }

    /// The kept entries matching the request pattern in `body`, oldest first.
    private func matching(_ body: Data, _ reply: ([JournalEntry]) -> StubResponse) -> StubResponse {
        do {
            return reply(engine.journal.entries(matching: try Self.pattern(body)))
        } catch {
            return AdminReply.invalid(error)
        }
    }

    /// The request pattern in `body`; an empty body matches every request.
    private static func pattern(_ body: Data) throws(DecoyError) -> RequestPattern {
        try RequestPattern(json: body.isEmpty ? Data("{}".utf8) : body, source: "request body")
    }

    private static func date(_ text: String) -> Date? {
        (try? Date(text, strategy: .iso8601))
            ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    // MARK: Scenarios

    private func scenarios(_ registry: StubRegistry) -> StubResponse {
        let summaries = registry.scenarioSummaries
        // Listed only when some stub takes part in a scenario: the dashboard asks for scenarios
        // of a registry of thousands of stubs once a second.
        let mappings = summaries.isEmpty ? [] : registry.mappings
        return AdminReply.encoded(
            Scenarios(
                scenarios: summaries.map { summary in
                    Scenarios.Entry(
                        id: summary.name, name: summary.name, state: summary.state,
                        possibleStates: summary.possibleStates,
                        mappings: mappings.filter { $0.route.scenario?.name == summary.name }.reversed().map(\.document)
                    )
                }))
    }

    /// `PUT /__admin/scenarios/{name}/state` with `{"state": "…"}`; without a state, back to ``Scenario/started``.
    private func setState(_ registry: StubRegistry, scenario name: String, _ body: Data) -> StubResponse {
        guard registry.scenarioSummaries.contains(where: { $0.name == name }) else {
            return AdminReply.error(.notFound, "No stub takes part in the scenario \"\(name)\".")
        }
        let state: String
        do {
            state =
                body.isEmpty
                ? Scenario.started : try JSONDecoder().decode(ScenarioState.self, from: body).state ?? Scenario.started
        } catch {
            return AdminReply.error(.unprocessableContent, #"Expected {"state": "…"}: \#(error)"#)
        }
        registry.setScenarioState(name, to: state)
        return AdminReply.ok
    }

    private struct ScenarioState: Decodable {
        let state: String?
    }

    private struct Scenarios: Encodable {
        struct Entry: Encodable {
            let id: String
            let name: String
            let state: String
            let possibleStates: [String]
            let mappings: [JSONValue]
        }
        let scenarios: [Entry]
    }
}
