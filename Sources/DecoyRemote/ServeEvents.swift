import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// `GET /__admin/requests` read back into journal entries: WireMock's serve events, newest first,
/// as a Decoy server writes them.
enum ServeEvents {
    /// The faults by the names serve events give them, which are the cases' own.
    private static let faults = Dictionary(
        uniqueKeysWithValues: [
            Fault.connectionReset, .emptyResponse, .malformedResponse, .randomDataThenClose, .timeout,
        ].map { ("\($0)", $0) })

    /// The journal `data` describes, oldest first.
    static func journal(from data: Data) throws -> RequestJournal {
        let page = try JSONDecoder().decode(ServeEvent.Page.self, from: data)
        let newestFirst = page.requests
        // Many requests share a few stubs, and reading a mapping's route goes through the
        // stub-file decoder: each mapping is read once.
        var routes: [JSONValue: Route?] = [:]
        let entries = try newestFirst.enumerated().reversed().map { index, event in
            let route = event.stubMapping.flatMap { mapping in
                if let known = routes[mapping] { return known }
                let route = Route(mapping: mapping)
                routes[mapping] = route
                return route
            }
            return try entry(event, position: page.meta.total - index, route: route)
        }
        return RequestJournal(entries: entries, totalCount: page.meta.total)
    }

    /// The entry `event` describes; `route` is its mapping's, when Decoy reads one.
    private static func entry(_ event: ServeEvent, position: Int, route mappingRoute: Route?) throws -> JournalEntry {
        guard let method = HTTPRequest.Method(event.request.method) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription: "a served request's method \"\(event.request.method)\" is not a method"))
        }
        let request = StubRequest(
            method: method, target: event.request.url,
            rawHeaderFields: event.request.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: Data(base64Encoded: event.request.bodyAsBase64) ?? Data()
        )
        var response = StubResponse(
            status: HTTPResponse.Status(code: event.response.status == 0 ? 200 : event.response.status),
            headerFields: HTTPFields(
                event.response.headers.sorted { $0.key < $1.key }.compactMap { name, value in
                    HTTPField.Name(name).map { HTTPField(name: $0, value: value) }
                }),
            body: Data(base64Encoded: event.response.bodyAsBase64) ?? Data()
        )
        response.fault = event.response.fault.flatMap { faults[$0] }
        // A matched request whose stub is gone since, or has no route Decoy reads, still matched.
        let route = event.wasMatched ? (mappingRoute ?? Route.any("/**")) : nil
        return JournalEntry(
            sequence: ServedRequest.sequence(inID: event.id) ?? position,
            date: Date(timeIntervalSince1970: Double(event.request.loggedDate) / 1000),
            request: request, route: route, response: response, delay: .milliseconds(event.timing.addedDelay)
        )
    }
}
