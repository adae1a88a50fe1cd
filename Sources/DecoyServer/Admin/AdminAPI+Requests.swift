import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// The request journal, under `requests`, and WireMock's near misses, which work with any provider
/// but those of stubs, which need its routes.
extension AdminAPI {
    /// Newest first, with WireMock's `limit` and `since` (an ISO 8601 time), and Decoy's `offset`
    /// and filters (``JournalFilter``), with which the dashboard pages through a long journal.
    func requests(_ call: AdminCall) -> StubResponse {
        let request = call.request
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
            ServeEvent.Page(
                requests: serveEvents(Array(page), baseURL: call.baseURL), total: engine.journal.totalCount))
    }

    func resetJournal() -> StubResponse {
        engine.journal.reset()
        return AdminReply.ok
    }

    func countRequests(_ call: AdminCall) -> StubResponse {
        matching(call.body) { AdminReply.encoded(["count": $0.count]) }
    }

    func findRequests(_ call: AdminCall) -> StubResponse {
        matching(call.body) { found($0, baseURL: call.baseURL) }
    }

    func unmatchedRequests(_ call: AdminCall) -> StubResponse {
        found(engine.journal.unmatchedEntries, baseURL: call.baseURL)
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
            let all = allMappings
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

    /// The provider's mappings; none when it keeps none, whose serve events then name no stub.
    private var allMappings: [StubMapping] { (engine.provider as? any StubMappingStore)?.mappings ?? [] }

    /// Each route's registration, the newest where routes are equal: the one that answers them.
    func mappingsByRoute() -> [Route: StubMapping] {
        Dictionary(allMappings.map { ($0.route, $0) }) { newest, _ in newest }
    }

    private struct FoundRequests: Encodable {
        let requests: [ServedRequest]
    }

    private func found(_ entries: [JournalEntry], baseURL: String) -> StubResponse {
        AdminReply.encoded(FoundRequests(requests: entries.map { ServedRequest($0, baseURL: baseURL) }))
    }

    /// `GET` or `DELETE` of the served request `{id}`, as a serve event; `DELETE` forgets it.
    func servedRequest(_ call: AdminCall) -> StubResponse {
        let (id, removing) = (call.parameters[0], call.request.method == .delete)
        let isIt = { (entry: JournalEntry) in ServedRequest.id(of: entry) == id }
        guard
            let entry = removing ? engine.journal.remove(where: isIt).first : engine.journal.entries.first(where: isIt)
        else {
            return AdminReply.error(.notFound, "No request in the journal has the id \"\(id)\".")
        }
        return removing ? AdminReply.ok : AdminReply.encoded(serveEvents([entry], baseURL: call.baseURL)[0])
    }

    /// WireMock's `removeServeEvents`: forgets the requests matching the pattern in the body and lists them.
    func removeRequests(_ call: AdminCall) -> StubResponse {
        do {
            let removed = engine.journal.remove(matching: try Self.pattern(call.body))
            return AdminReply.encoded(["serveEvents": serveEvents(removed, baseURL: call.baseURL)])
        } catch {
            return AdminReply.invalid(error)
        }
    }

    /// WireMock's `removeEventsByStubMetadata`: forgets the requests answered by stubs whose metadata
    /// satisfies the matcher in the body, and lists them.
    func removeRequestsByMetadata(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in
            do throws(DecoyError) {
                let routes = Set(try store.mappings(withMetadata: call.body).map(\.route))
                let removed = engine.journal.remove { $0.route.map(routes.contains) ?? false }
                return AdminReply.encoded(["serveEvents": serveEvents(removed, baseURL: call.baseURL)])
            } catch {
                return AdminReply.invalid(error)
            }
        }
    }

    // MARK: Near misses

    /// For each request no stub matched, the stubs it nearly matched as they are registered now.
    func unmatchedNearMisses(_ call: AdminCall) -> StubResponse {
        withRoutes(call) { provider in
            let mappings = mappingsByRoute().mapValues(\.document)
            let misses = engine.journal.unmatchedEntries.flatMap { entry in
                NearMisses.stubs(
                    nearlyMatching: ServedRequest(entry, baseURL: call.baseURL), entry.request, provider: provider,
                    mappings: mappings)
            }
            return AdminReply.encoded(NearMisses(nearMisses: misses))
        }
    }

    /// The stubs the request in the body, in WireMock's logged-request shape, nearly matches.
    func nearMisses(toRequest call: AdminCall) -> StubResponse {
        withRoutes(call) { provider in
            let logged: LoggedRequest
            do {
                logged = try JSONDecoder().decode(LoggedRequest.self, from: call.body)
            } catch {
                return AdminReply.error(.unprocessableContent, "Expected a request with url and method: \(error)")
            }
            guard let request = logged.stubRequest else {
                return AdminReply.error(
                    .unprocessableContent, "The request's method or a header name is not valid HTTP.")
            }
            let served = ServedRequest(request, id: UUID().uuidString.lowercased(), date: Date(), baseURL: call.baseURL)
            return AdminReply.encoded(
                NearMisses(
                    nearMisses: NearMisses.stubs(
                        nearlyMatching: served, request, provider: provider,
                        mappings: mappingsByRoute().mapValues(\.document))))
        }
    }

    /// The received requests that nearly match the request pattern in the body: what WireMock's
    /// clients show when a `verify` fails.
    func nearMisses(toPattern call: AdminCall) -> StubResponse {
        do {
            let pattern = try Self.pattern(call.body)
            let misses = NearMisses.requests(
                nearlyMatching: pattern, document: JSONValue(parsing: call.body), in: engine.journal.entries,
                baseURL: call.baseURL)
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
}
