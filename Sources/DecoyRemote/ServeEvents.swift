import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// `GET /__admin/requests` read back into journal entries: WireMock's serve events, newest first,
/// as a Decoy server writes them.
enum ServeEvents {
    private struct Page: Decodable {
        struct Meta: Decodable { let total: Int }
        let requests: [Event]
        let meta: Meta
    }

    private struct Event: Decodable {
        struct Request: Decodable {
            let url: String
            let method: String
            let headers: [String: String]
            let bodyAsBase64: String
            let loggedDate: Int64
        }
        struct Response: Decodable {
            let status: Int
            let headers: [String: String]
            let bodyAsBase64: String
            let fault: String?
        }
        struct Timing: Decodable { let addedDelay: Int }

        let id: String
        let request: Request
        let response: Response
        let timing: Timing
        let stubMapping: JSONValue?
        let wasMatched: Bool
    }

    /// The faults by the names serve events give them, which are the cases' own.
    private static let faults = Dictionary(uniqueKeysWithValues: [Fault.connectionReset, .emptyResponse, .malformedResponse, .randomDataThenClose, .timeout].map { ("\($0)", $0) })

    /// The journal `data` describes, oldest first.
    static func journal(from data: Data) throws -> RequestJournal {
        let page = try JSONDecoder().decode(Page.self, from: data)
        let newestFirst = page.requests
        let entries = try newestFirst.enumerated().reversed().map { index, event in
            try entry(event, position: page.meta.total - index)
        }
        return RequestJournal(entries: entries, totalCount: page.meta.total)
    }

    private static func entry(_ event: Event, position: Int) throws -> JournalEntry {
        guard let method = HTTPRequest.Method(event.request.method) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a served request's method \"\(event.request.method)\" is not a method"))
        }
        let request = StubRequest(
            method: method, target: event.request.url,
            rawHeaderFields: event.request.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: Data(base64Encoded: event.request.bodyAsBase64) ?? Data()
        )
        var response = StubResponse(
            status: HTTPResponse.Status(code: event.response.status == 0 ? 200 : event.response.status),
            headerFields: HTTPFields(event.response.headers.sorted { $0.key < $1.key }.compactMap { name, value in
                HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
            }),
            body: Data(base64Encoded: event.response.bodyAsBase64) ?? Data()
        )
        response.fault = event.response.fault.flatMap { faults[$0] }
        // A matched request whose stub is gone since, or has no route Decoy reads, still matched.
        let route = event.wasMatched ? (event.stubMapping.flatMap(Route.init(mapping:)) ?? Route.any("/**")) : nil
        return JournalEntry(
            sequence: sequence(of: event.id) ?? position, date: Date(timeIntervalSince1970: Double(event.request.loggedDate) / 1000),
            request: request, route: route, response: response, delay: .milliseconds(event.timing.addedDelay)
        )
    }

    /// The sequence number a Decoy server puts in the last group of a serve event's id.
    private static func sequence(of id: String) -> Int? {
        id.split(separator: "-").last.flatMap { Int($0, radix: 16) }
    }
}
