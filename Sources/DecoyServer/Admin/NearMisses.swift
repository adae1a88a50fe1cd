import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// WireMock's near misses: a request and the stub, or the request pattern, it nearly matched.
struct NearMisses: Encodable {
    struct Entry: Encodable {
        /// WireMock's 0…1 distance; Decoy's orders near misses by their number of differences,
        /// `n / (n + 1)`, and is not WireMock's number.
        struct MatchResult: Encodable {
            let distance: Double

            init(differences: Int) {
                distance = Double(differences) / Double(differences + 1)
            }
        }

        let request: ServedRequest
        let stubMapping: JSONValue?
        let requestPattern: JSONValue?
        let matchResult: MatchResult
    }

    let nearMisses: [Entry]

    /// The stubs `request` nearly matched, closest first, as the unmatched 404 names them.
    static func stubs(
        nearlyMatching request: ServedRequest, _ stubRequest: StubRequest, provider: any RoutedStubProvider,
        mappings: [Route: JSONValue]
    ) -> [Entry] {
        guard case .unmatched(let unmatched) = provider.lookup(stubRequest) else { return [] }
        return unmatched.nearMisses.map { miss in
            Entry(
                request: request, stubMapping: mappings[miss.route], requestPattern: nil,
                matchResult: .init(differences: miss.reason.components(separatedBy: "; ").count)
            )
        }
    }

    /// The received requests that nearly match `pattern`, closest first, at most three, as
    /// DecoyTesting's near misses rank them.
    static func requests(
        nearlyMatching pattern: RequestPattern, document: JSONValue?, in entries: [JournalEntry], baseURL: String
    ) -> [Entry] {
        Closeness.ranked(entries, from: pattern) { $0.request }.prefix(3).map { miss in
            Entry(
                request: ServedRequest(miss.candidate, baseURL: baseURL), stubMapping: nil, requestPattern: document,
                matchResult: .init(differences: miss.differences.count)
            )
        }
    }
}

/// A request as WireMock's clients send it to `POST /__admin/near-misses/request`.
struct LoggedRequest: Decodable {
    let url: String
    let method: String
    let headers: [String: HeaderValue]?
    let body: String?
    let bodyAsBase64: String?

    /// A header value: one string, or a list for a repeated field.
    enum HeaderValue: Decodable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    /// The request as the engine sees one; `nil` when its method or a header name is not valid HTTP.
    var stubRequest: StubRequest? {
        guard let method = HTTPRequest.Method(method) else { return nil }
        var fields = HTTPFields()
        for (name, value) in headers ?? [:] {
            guard let name = HTTPField.Name(name) else { return nil }
            for value in value.values { fields.append(HTTPField(name: name, value: value)) }
        }
        let data = bodyAsBase64.flatMap { Data(base64Encoded: $0) } ?? Data((body ?? "").utf8)
        return StubRequest(method: method, target: url, headerFields: fields, body: data)
    }
}
