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
/// An endpoint is a row of ``routes``; its handler lives with those of its concern
/// (`AdminAPI+Mappings.swift`, `+Requests`, `+Scenarios`, `+Settings`, `RecordingsAPI.swift`,
/// `DashboardAPI.swift`).
struct AdminAPI: Sendable {
    static let prefix = "/__admin"

    let engine: StubEngine
    let access: MockServer.AdminAccess
    /// The server's recorder, for WireMock's recordings; `nil` when its provider cannot record.
    let recorder: Recorder?
    /// The server's WebSockets, their message stubs and journal.
    let webSockets: WebSocketChannels
    let started = Date()

    /// Every endpoint, in the order they are tried: literal paths before the patterns they fit.
    static let routes: [AdminRoute] =
        [
            AdminRoute(.get, "dashboard", isOpen: true) { _, _ in DashboardPage.html },
            AdminRoute(.get, "dashboard/app.js", isOpen: true) { _, _ in DashboardPage.script },
            AdminRoute(.get, "dashboard/app.css", isOpen: true) { _, _ in DashboardPage.style },
            AdminRoute(.get, "events") { api, call in
                JournalFeed<JournalEntry>.stream(api.engine.journal) { api.serveEvents($0, baseURL: call.baseURL) }
            },
            AdminRoute(.get, "health") { api, _ in api.health() },
            AdminRoute(.get, "stub-summaries") { $0.stubSummaries($1) },
            AdminRoute(.get, "mappings") { $0.mappings($1) },
            AdminRoute(.post, "mappings") { $0.addMapping($1) },
            AdminRoute(.post, "mappings/new") { $0.addMapping($1) },
            AdminRoute(.delete, "mappings") { api, call in api.changingMappings(call) { $0.removeAllMappings() } },
            AdminRoute(.post, "mappings/reset") { api, call in api.changingMappings(call) { $0.resetMappings() } },
            AdminRoute(.post, "mappings/edit") { $0.editMapping($1) },
            AdminRoute(.post, "mappings/remove") { api, call in
                api.changingMappings(call) { (store) throws(DecoyError) in try store.removeMappings(like: call.body) }
            },
            AdminRoute(.post, "mappings/import") { api, call in
                api.changingMappings(call) { (store) throws(DecoyError) in try store.importMappings(call.body) }
            },
            AdminRoute(.post, "mappings/save") { api, call in
                api.changingMappings(call) { (store) throws(DecoyError) in try store.saveMappings() }
            },
            AdminRoute(.post, "mappings/find-by-metadata") { $0.findMappingsByMetadata($1) },
            AdminRoute(.post, "mappings/remove-by-metadata") { api, call in
                api.changingMappings(call) { (store) throws(DecoyError) in
                    try store.removeMappings(withMetadata: call.body)
                }
            },
            AdminRoute(.get, "stub-files") { $0.stubFiles($1) },
            AdminRoute(.get, "settings") { $0.settings($1) },
            AdminRoute(.post, "settings/reset") { $0.resetSettings($1) },
            AdminRoute(.post, "settings") { $0.applySettings($1) },
            AdminRoute(.put, "settings") { $0.applySettings($1) },
            AdminRoute(.get, "requests") { $0.requests($1) },
            AdminRoute(.delete, "requests") { api, _ in api.resetJournal() },
            AdminRoute(.post, "requests/reset") { api, _ in api.resetJournal() },
            AdminRoute(.post, "requests/count") { $0.countRequests($1) },
            AdminRoute(.post, "requests/find") { $0.findRequests($1) },
            AdminRoute(.post, "requests/remove") { $0.removeRequests($1) },
            AdminRoute(.post, "requests/remove-by-metadata") { $0.removeRequestsByMetadata($1) },
            AdminRoute(.get, "requests/unmatched") { $0.unmatchedRequests($1) },
            AdminRoute(.get, "requests/har") { api, _ in api.har() },
            AdminRoute(.get, "requests/unmatched/near-misses") { $0.unmatchedNearMisses($1) },
            AdminRoute(.post, "near-misses/request") { $0.nearMisses(toRequest: $1) },
            AdminRoute(.post, "near-misses/request-pattern") { $0.nearMisses(toPattern: $1) },
            AdminRoute(.post, "reset") { api, call in api.changingMappings(call) { $0.reset() } },
            AdminRoute(.get, "scenarios") { $0.scenarios($1) },
            AdminRoute(.post, "scenarios/reset") { $0.resetScenarios($1) },
            AdminRoute(.put, "scenarios/{name}/state") { $0.setScenarioState($1) },
            AdminRoute(.post, "recordings/start") { $0.startRecording($1) },
            AdminRoute(.post, "recordings/stop") { $0.stopRecording($1) },
            AdminRoute(.get, "recordings/status") { $0.recordingStatus($1) },
            AdminRoute(.post, "recordings/snapshot") { $0.snapshotRecording($1) },
            AdminRoute(.get, "mappings/{id}") { $0.mapping($1) },
            AdminRoute(.put, "mappings/{id}") { $0.mapping($1) },
            AdminRoute(.delete, "mappings/{id}") { $0.mapping($1) },
            AdminRoute(.get, "requests/{id}/near-misses") { $0.nearMisses(ofRequest: $1) },
            AdminRoute(.get, "requests/{id}") { $0.servedRequest($1) },
            AdminRoute(.delete, "requests/{id}") { $0.servedRequest($1) },
            AdminRoute(
                unserved: "shutdown/**", reason: "stop decoy serve with SIGINT or SIGTERM, or MockServer with stop()"),
            AdminRoute(
                unserved: "files/**", reason: "body files live in the stubs folder's __files; change them there"),
        ] + messageRoutes

    /// Whether `target` is for the admin API rather than the stubs.
    func handles(_ target: String) -> Bool {
        guard access != .off, target.utf8.starts(with: Self.prefix.utf8) else { return false }
        let rest = target.utf8.dropFirst(Self.prefix.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/") || rest.first == UInt8(ascii: "?")
    }

    /// The reply to an admin request: JSON, one of the dashboard's files, or the live feed of
    /// `GET /__admin/events`, which goes on for as long as its client stays.
    func reply(to request: StubRequest, baseURL: String) async -> Reply {
        let path = request.path.dropFirst(Self.prefix.count).split(separator: "/")
        var fitsAnotherMethod = false
        var found: (route: AdminRoute, parameters: [String])?
        for route in Self.routes {
            guard let parameters = route.parameters(of: path) else { continue }
            guard route.method == nil || route.method == request.method else {
                fitsAnotherMethod = true
                continue
            }
            found = (route, parameters)
            break
        }
        if let found, found.route.isOpen, case .served(let handler) = found.route.handling {
            return handler(self, AdminCall(request: request, baseURL: baseURL, parameters: found.parameters))
        }
        guard isAuthorized(request) else {
            return .whole(
                AdminReply.error(.unauthorized, "The admin API needs the header Authorization: Bearer <token>."))
        }
        switch found?.route.handling {
        case .served(let handler)?:
            return handler(self, AdminCall(request: request, baseURL: baseURL, parameters: found?.parameters ?? []))
        case .awaited(let handler)?:
            return .whole(
                await handler(self, AdminCall(request: request, baseURL: baseURL, parameters: found?.parameters ?? [])))
        case .unserved(let reason)?:
            return .whole(
                AdminReply.error(
                    .notImplemented,
                    "Decoy does not serve \(request.method) \(request.path): \(reason). See docs/admin-api.md."))
        case nil where fitsAnotherMethod:
            return .whole(
                AdminReply.error(
                    .methodNotAllowed,
                    "\(request.method) \(request.path) is not an admin endpoint; see docs/admin-api.md."))
        case nil:
            return .whole(
                AdminReply.error(.notFound, "\(request.path) is not an admin endpoint; see docs/admin-api.md."))
        }
    }

    /// Whether `request` carries the token, when one is needed.
    private func isAuthorized(_ request: StubRequest) -> Bool {
        guard case .token(let token) = access else { return true }
        return Self.sameBytes(request.headerFields[.authorization] ?? "", "Bearer \(token)")
    }

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

    // MARK: Capabilities

    /// `body`'s reply when the server's provider is a `Store`, a capability beyond finding stubs;
    /// otherwise `501`, naming what it lacks. The request journal, which the engine keeps, is there
    /// with any provider.
    private func with<Store>(
        _ capability: ProviderCapability, _ call: AdminCall, as _: Store.Type, _ body: (Store) -> StubResponse
    ) -> StubResponse {
        guard let store = engine.provider as? Store else { return unsupported(capability, call) }
        return body(store)
    }

    /// The `501` for what the server's provider cannot do, naming the request, the provider and the capability.
    private func unsupported(_ capability: ProviderCapability, _ call: AdminCall) -> StubResponse {
        AdminReply.error(
            .notImplemented,
            """
            Decoy cannot serve \(call.request.method) \(call.request.path) here: this server serves a custom \
            StubProvider (\(type(of: engine.provider))), which does not support \(capability.words) (it does not \
            conform to \(capability.protocolName)); a StubRegistry does. The request journal endpoints work with \
            any provider.
            """)
    }

    func withMappings(_ call: AdminCall, _ body: (any StubMappingStore) -> StubResponse) -> StubResponse {
        with(.stubMappings, call, as: (any StubMappingStore).self, body)
    }

    func withScenarios(_ call: AdminCall, _ body: (any ScenarioStore) -> StubResponse) -> StubResponse {
        with(.scenarios, call, as: (any ScenarioStore).self, body)
    }

    func withSettings(_ call: AdminCall, _ body: (any SettingsStore) -> StubResponse) -> StubResponse {
        with(.settings, call, as: (any SettingsStore).self, body)
    }

    func withRoutes(_ call: AdminCall, _ body: (any RoutedStubProvider) -> StubResponse) -> StubResponse {
        with(.routes, call, as: (any RoutedStubProvider).self, body)
    }

    /// `body`'s reply with the server's recorder, which a provider that can record has.
    func withRecorder(_ call: AdminCall, _ body: (Recorder) -> StubResponse) -> StubResponse {
        guard let recorder else { return unsupported(.recording, call) }
        return body(recorder)
    }

    /// `{}` once `change` is made to the provider's mappings; its refusal, by field, when it throws.
    func changingMappings(_ call: AdminCall, _ change: (any StubMappingStore) throws(DecoyError) -> Void)
        -> StubResponse
    {
        withMappings(call) { store in
            do throws(DecoyError) {
                try change(store)
                return AdminReply.ok
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    // MARK: Health

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
}

/// What a provider may have beyond finding stubs, as the admin API names it when one lacks it.
enum ProviderCapability {
    case stubMappings, scenarios, settings, routes, recording

    var words: String {
        switch self {
        case .stubMappings: "stub mappings"
        case .scenarios: "scenarios"
        case .settings: "settings"
        case .routes: "routes, which near misses are made of"
        case .recording: "recording"
        }
    }

    var protocolName: String {
        switch self {
        case .stubMappings: "StubMappingStore"
        case .scenarios: "ScenarioStore"
        case .settings: "SettingsStore"
        case .routes: "RoutedStubProvider"
        case .recording: "RecordingStore"
        }
    }
}
