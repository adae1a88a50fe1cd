package import Decoy
package import Foundation
package import HTTPTypes

/// A journal entry in WireMock's serve-event shape, as `GET /__admin/requests` lists it: the
/// request, the response given, how long it was held, and the stub mapping that answered.
///
/// The admin API's wire type, written by `DecoyServer` and read back by `DecoyRemote`: one
/// definition, so that what one writes the other reads.
package struct ServeEvent: Codable, Sendable {
    /// `GET /__admin/requests`: serve events, newest first, and how many the journal took in all.
    package struct Page: Codable, Sendable {
        package let requests: [ServeEvent]
        package let meta: AdminListMeta
        package let requestJournalDisabled: Bool

        package init(requests: [ServeEvent], total: Int) {
            self.requests = requests
            meta = AdminListMeta(total: total)
            requestJournalDisabled = false
        }
    }

    package struct ResponseDefinition: Codable, Sendable {
        package let status: Int?
        package let fault: String?
        package let fromConfiguredStub: Bool
    }

    /// What the client was sent, as WireMock logs it.
    package struct LoggedResponse: Codable, Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: String
        package let bodyAsBase64: String
        package let fault: String?
    }

    /// WireMock's timings, in milliseconds; Decoy knows the delay it added.
    package struct Timing: Codable, Sendable {
        package let addedDelay: Int
    }

    package let id: String
    package let request: ServedRequest
    package let responseDefinition: ResponseDefinition
    package let response: LoggedResponse
    package let timing: Timing
    package let stubMapping: JSONValue?
    package let wasMatched: Bool
    /// How a proxied response differs from the OpenAPI document or the stub it was checked
    /// against (`decoy serve --openapi`, `decoy record --openapi` or `--compare`); left out when
    /// nothing was checked or nothing differs, so that WireMock's clients read the rest as ever.
    package let drift: [ResponseDrift]?

    /// `mappings` gives the registration each route answered for, as the registry has them now.
    package init(_ entry: JournalEntry, baseURL: String, mappings: [Route: JSONValue]) {
        id = ServedRequest.id(of: entry)
        request = ServedRequest(entry, baseURL: baseURL)
        let fault = entry.fault.map { "\($0)" }
        responseDefinition = ResponseDefinition(
            status: entry.status?.code, fault: fault, fromConfiguredStub: entry.isMatched)
        let answered = entry.response
        response = LoggedResponse(
            status: entry.status?.code ?? 0, headers: ServedRequest.joined(answered.headerFields),
            body: String(decoding: answered.body, as: UTF8.self), bodyAsBase64: answered.body.base64EncodedString(),
            fault: fault
        )
        timing = Timing(addedDelay: Int(entry.delay / .milliseconds(1)))
        stubMapping = entry.route.flatMap { mappings[$0] }
        wasMatched = entry.isMatched
        drift = answered.drift.isEmpty ? nil : answered.drift
    }
}

/// What the admin API says of a list beside its items: how many there are in all.
package struct AdminListMeta: Codable, Sendable {
    package let total: Int

    package init(total: Int) {
        self.total = total
    }
}

/// A received request in WireMock's shape: what `requests/find` and `requests/unmatched` list.
package struct ServedRequest: Codable, Sendable {
    package struct QueryParameter: Codable, Sendable {
        package let key: String
        package let values: [String]
    }

    package let id: String
    package let url: String
    package let absoluteUrl: String
    package let method: String
    /// Always `127.0.0.1`: the journal keeps no client's address, so a client over `::1`, or over
    /// another address a server with an admin token listens on, is reported as `127.0.0.1` too.
    package let clientIp: String
    package let headers: [String: String]
    package let cookies: [String: String]
    package let queryParameters: [String: QueryParameter]
    package let body: String
    package let bodyAsBase64: String
    package let loggedDate: Int64
    package let loggedDateString: String
    package let browserProxyRequest: Bool

    package init(_ entry: JournalEntry, baseURL: String) {
        self.init(entry.request, id: Self.id(of: entry), date: entry.date, baseURL: baseURL)
    }

    package init(_ request: StubRequest, id: String, date: Date, baseURL: String) {
        self.id = id
        url = request.target
        absoluteUrl = baseURL + request.target
        method = request.method.rawValue
        clientIp = "127.0.0.1"
        headers = Self.joined(request.headerFields)
        cookies = Dictionary(
            request.cookies.compactMap { cookie in cookie.name.isEmpty ? nil : cookie.value.map { (cookie.name, $0) } }
        ) { first, _ in first }
        var parameters: [String: QueryParameter] = [:]
        for item in request.queryItems {
            parameters[item.name] = QueryParameter(
                key: item.name, values: (parameters[item.name]?.values ?? []) + [item.value ?? ""])
        }
        queryParameters = parameters
        body = request.bodyText
        bodyAsBase64 = request.body.base64EncodedString()
        loggedDate = Int64((date.timeIntervalSince1970 * 1000).rounded())
        loggedDateString = date.formatted(.iso8601)
        browserProxyRequest = false
    }

    /// Repeated fields joined as HTTP allows, so that each name appears once.
    package static func joined(_ fields: HTTPFields) -> [String: String] {
        Dictionary(uniqueKeysWithValues: fields.joiningRepeatedNames.map { ($0.name.rawName, $0.value) })
    }

    /// A UUID-shaped id from the entry's sequence number, unique within the journal.
    package static func id(of entry: JournalEntry) -> String {
        let hex = String(entry.sequence, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }

    /// The sequence number ``id(of:)`` put in the id's last group.
    package static func sequence(inID id: String) -> Int? {
        id.split(separator: "-").last.flatMap { Int($0, radix: 16) }
    }
}
