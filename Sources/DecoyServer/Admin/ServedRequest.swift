import Decoy
import Foundation
import HTTPTypes

/// A journal entry in WireMock's serve-event shape, as `GET /__admin/requests` lists it: the
/// request, the response given, how long it was held, and the stub mapping that answered.
struct ServeEvent: Encodable {
    struct ResponseDefinition: Encodable {
        let status: Int?
        let fault: String?
        let fromConfiguredStub: Bool
    }

    /// What the client was sent, as WireMock logs it.
    struct LoggedResponse: Encodable {
        let status: Int
        let headers: [String: String]
        let body: String
        let bodyAsBase64: String
        let fault: String?
    }

    /// WireMock's timings, in milliseconds; Decoy knows the delay it added.
    struct Timing: Encodable {
        let addedDelay: Int
    }

    let id: String
    let request: ServedRequest
    let responseDefinition: ResponseDefinition
    let response: LoggedResponse
    let timing: Timing
    let stubMapping: JSONValue?
    let wasMatched: Bool

    /// `mappings` gives the registration each route answered for, as the registry has them now.
    init(_ entry: JournalEntry, baseURL: String, mappings: [Route: JSONValue]) {
        id = ServedRequest.id(of: entry)
        request = ServedRequest(entry, baseURL: baseURL)
        let fault = entry.fault.map { "\($0)" }
        responseDefinition = ResponseDefinition(status: entry.status?.code, fault: fault, fromConfiguredStub: entry.isMatched)
        let answered = entry.response
        response = LoggedResponse(
            status: entry.status?.code ?? 0, headers: ServedRequest.joined(answered.headerFields),
            body: String(decoding: answered.body, as: UTF8.self), bodyAsBase64: answered.body.base64EncodedString(), fault: fault
        )
        timing = Timing(addedDelay: Int(entry.delay / .milliseconds(1)))
        stubMapping = entry.route.flatMap { mappings[$0] }
        wasMatched = entry.isMatched
    }
}

/// A received request in WireMock's shape: what `requests/find` and `requests/unmatched` list.
struct ServedRequest: Encodable {
    struct QueryParameter: Encodable {
        let key: String
        let values: [String]
    }

    let id: String
    let url: String
    let absoluteUrl: String
    let method: String
    let clientIp = "127.0.0.1"
    let headers: [String: String]
    let cookies: [String: String]
    let queryParameters: [String: QueryParameter]
    let body: String
    let bodyAsBase64: String
    let loggedDate: Int64
    let loggedDateString: String
    let browserProxyRequest = false

    init(_ entry: JournalEntry, baseURL: String) {
        self.init(entry.request, id: Self.id(of: entry), date: entry.date, baseURL: baseURL)
    }

    init(_ request: StubRequest, id: String, date: Date, baseURL: String) {
        self.id = id
        url = request.target
        absoluteUrl = baseURL + request.target
        method = request.method.rawValue
        headers = Self.joined(request.headerFields)
        cookies = Dictionary(request.cookies.compactMap { cookie in cookie.name.isEmpty ? nil : cookie.value.map { (cookie.name, $0) } }) { first, _ in first }
        var parameters: [String: QueryParameter] = [:]
        for item in request.queryItems {
            parameters[item.name] = QueryParameter(key: item.name, values: (parameters[item.name]?.values ?? []) + [item.value ?? ""])
        }
        queryParameters = parameters
        body = request.bodyText
        bodyAsBase64 = request.body.base64EncodedString()
        loggedDate = Int64((date.timeIntervalSince1970 * 1000).rounded())
        loggedDateString = date.formatted(.iso8601)
    }

    /// Repeated fields joined as HTTP allows, so that each name appears once.
    static func joined(_ fields: HTTPFields) -> [String: String] {
        Dictionary(uniqueKeysWithValues: fields.joiningRepeatedNames.map { ($0.name.rawName, $0.value) })
    }

    /// A UUID-shaped id from the entry's sequence number, unique within the journal.
    static func id(of entry: JournalEntry) -> String {
        let hex = String(entry.sequence, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }
}
