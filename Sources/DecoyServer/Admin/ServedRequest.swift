import Decoy
import Foundation

/// A journal entry in WireMock's serve-event shape, as `GET /__admin/requests` lists it.
struct ServeEvent: Encodable {
    struct ResponseDefinition: Encodable {
        let status: Int?
        let fault: String?
        let fromConfiguredStub: Bool
    }

    let id: String
    let request: ServedRequest
    let responseDefinition: ResponseDefinition
    let wasMatched: Bool

    init(_ entry: JournalEntry, baseURL: String) {
        id = ServedRequest.id(of: entry)
        request = ServedRequest(entry, baseURL: baseURL)
        responseDefinition = ResponseDefinition(status: entry.status?.code, fault: entry.fault.map { "\($0)" }, fromConfiguredStub: entry.isMatched)
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
        let request = entry.request
        id = Self.id(of: entry)
        url = request.target
        absoluteUrl = baseURL + request.target
        method = request.method.rawValue
        // Repeated fields are joined as HTTP allows, so each name appears once.
        headers = Dictionary(request.headerFields.map { ($0.name.rawName, $0.value) }) { "\($0), \($1)" }
        cookies = Dictionary(request.headerFields[values: .cookie].flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (parts[0].trimmingCharacters(in: .whitespaces), String(parts[1])) : nil
        }) { first, _ in first }
        var parameters: [String: QueryParameter] = [:]
        for item in request.queryItems {
            parameters[item.name] = QueryParameter(key: item.name, values: (parameters[item.name]?.values ?? []) + [item.value ?? ""])
        }
        queryParameters = parameters
        body = request.bodyText
        bodyAsBase64 = request.body.base64EncodedString()
        loggedDate = Int64((entry.date.timeIntervalSince1970 * 1000).rounded())
        loggedDateString = entry.date.formatted(.iso8601)
    }

    /// A UUID-shaped id from the entry's sequence number, unique within the journal.
    static func id(of entry: JournalEntry) -> String {
        let hex = String(entry.sequence, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    }
}
