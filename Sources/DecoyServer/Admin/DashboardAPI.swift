import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

// Decoy's own endpoints beside WireMock's, which the dashboard reads and a script can call too.

/// The journal filters of `GET /__admin/requests`: `method`, `path` (text the target contains,
/// ignoring case), `status` and `unmatched=true`.
struct JournalFilter {
    let method: HTTPRequest.Method?
    let pathText: String?
    let status: Int?
    let unmatchedOnly: Bool

    init(_ request: StubRequest) throws(AdminAPI.AdminRejection) {
        func refuse(_ text: String) -> AdminAPI.AdminRejection {
            AdminAPI.AdminRejection(reply: AdminReply.error(.badRequest, text))
        }
        if let text = request.queryValues("method").first, !text.isEmpty {
            guard let method = HTTPRequest.Method(text.uppercased()) else {
                throw refuse("method: expected an HTTP method such as GET, found \"\(text)\".")
            }
            self.method = method
        } else {
            method = nil
        }
        pathText = request.queryValues("path").first.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        if let text = request.queryValues("status").first, !text.isEmpty {
            guard let status = Int(text), (100...599).contains(status) else {
                throw refuse("status: expected a status code from 100 to 599, found \"\(text)\".")
            }
            self.status = status
        } else {
            status = nil
        }
        switch request.queryValues("unmatched").first {
        case nil, "", "false": unmatchedOnly = false
        case "true": unmatchedOnly = true
        case let text?: throw refuse("unmatched: expected true or false, found \"\(text)\".")
        }
    }

    func admits(_ entry: JournalEntry) -> Bool {
        (method.map { entry.request.method == $0 } ?? true)
            && (status.map { entry.status?.code == $0 } ?? true)
            && (!unmatchedOnly || !entry.isMatched)
            && (pathText.map { entry.request.target.lowercased().contains($0) } ?? true)
    }
}

/// One stub as the dashboard lists it: `GET /__admin/stub-summaries`.
struct StubSummary: Encodable {
    struct ScenarioStep: Encodable {
        let name: String
        let requiredState: String?
        let newState: String?
    }

    let id: String
    let name: String?
    let method: String
    /// The path pattern, a regular expression's after `~`, with the route's matchers, as the unmatched 404 shows it.
    let route: String
    let priority: Int
    let scenario: ScenarioStep?
    /// `file:line`, `code` or `admin API`.
    let origin: String
    /// How many of the requests the journal keeps it answered.
    let answered: Int

    init(_ mapping: StubMapping, answered: Int) {
        id = mapping.id
        let route = mapping.route
        self.route = route.description
        method = route.method?.rawValue ?? "ANY"
        priority = route.priority
        scenario = route.scenario.map {
            ScenarioStep(name: $0.name, requiredState: $0.requiredState, newState: $0.newState)
        }
        origin = Self.origin(of: mapping)
        name = Self.name(of: mapping)
        self.answered = answered
    }

    /// The stub's `name`; read from its JSON only for a stub not from a file, whose loader kept it.
    static func name(of mapping: StubMapping) -> String? {
        if case .file(let loaded) = mapping.origin { return loaded.name }
        guard case .object(let members) = mapping.document, case .string(let name)? = members["name"] else {
            return nil
        }
        return name
    }

    static func origin(of mapping: StubMapping) -> String {
        switch mapping.origin {
        case .file(let loaded): "\(loaded.file):\(loaded.line)"
        case .code: "code"
        case .adminAPI: "admin API"
        }
    }
}

/// A page of stub summaries and how many stubs the filter let through.
private struct StubSummaries: Encodable {
    let stubs: [StubSummary]
    let meta: AdminListMeta
}

/// A journaled request's near misses: each stub it nearly matched, as registered now, and why it missed.
private struct RequestNearMisses: Encodable {
    struct Entry: Encodable {
        let id: String?
        let name: String?
        let route: String
        /// The reason as the unmatched 404 words it.
        let reason: String
        /// The reason's differences, one each.
        let differences: [String]
    }

    let request: ServedRequest
    let wasMatched: Bool
    let nearMisses: [Entry]
}

extension AdminAPI {
    /// Newest first, paged by `offset` and `limit` (100 by default), filtered by `text` (in the
    /// route or the origin, ignoring case); each with how many journaled requests it answered.
    func stubSummaries(_ call: AdminCall) -> StubResponse {
        withMappings(call) { store in stubSummaries(store, call.request) }
    }

    private func stubSummaries(_ store: any StubMappingStore, _ request: StubRequest) -> StubResponse {
        let offset: Int
        let limit: Int
        do {
            (offset, limit) = (
                try Self.wholeNumber("offset", in: request) ?? 0, try Self.wholeNumber("limit", in: request) ?? 100
            )
        } catch {
            return error.reply
        }
        let text = request.queryValues("text").first?.lowercased() ?? ""
        let all = store.mappings.filter { mapping in
            text.isEmpty || mapping.route.description.lowercased().contains(text)
                || StubSummary.origin(of: mapping).lowercased().contains(text)
        }
        var answered: [ObjectIdentifier: Int] = [:]
        for entry in engine.journal.entries {
            if let route = entry.route { answered[route.identity, default: 0] += 1 }
        }
        let page = all.dropFirst(offset).prefix(limit)
        return AdminReply.encoded(
            StubSummaries(
                stubs: page.map { StubSummary($0, answered: answered[$0.route.identity] ?? 0) },
                meta: AdminListMeta(total: all.count)))
    }

    /// `GET /__admin/requests/{id}/near-misses`: the stubs the journaled request nearly matches.
    func nearMisses(ofRequest call: AdminCall) -> StubResponse {
        withRoutes(call) { provider in
            let id = call.parameters[0]
            guard let sequence = ServedRequest.sequence(inID: id),
                let entry = engine.journal.entries.last(where: { $0.sequence == sequence })
            else {
                return AdminReply.error(.notFound, "No request in the journal has the id \"\(id)\".")
            }
            let mappings = mappingsByRoute()
            var misses: [RequestNearMisses.Entry] = []
            if !entry.isMatched, case .unmatched(let unmatched) = provider.lookup(entry.request) {
                misses = unmatched.nearMisses.map { miss in
                    let mapping = mappings[miss.route]
                    return RequestNearMisses.Entry(
                        id: mapping?.id, name: mapping.flatMap(StubSummary.name(of:)),
                        route: miss.route.description, reason: miss.reason,
                        differences: miss.reason.components(separatedBy: "; "))
                }
            }
            return AdminReply.encoded(
                RequestNearMisses(
                    request: ServedRequest(entry, baseURL: call.baseURL), wasMatched: entry.isMatched,
                    nearMisses: misses))
        }
    }
}
