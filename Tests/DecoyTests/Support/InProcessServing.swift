import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The two in-process servings; stub tests run against both.
enum InProcessServing: String, CaseIterable, CustomTestStringConvertible {
    /// `StubTransport`, the engine plugged into `APIClient`'s transport slot.
    case transport
    /// Plain `URLSession` answered by `StubURLProtocol`.
    case urlProtocol

    var testDescription: String { rawValue }

    /// One exchange through this serving, as the client sees it.
    func exchange(_ registry: StubRegistry, _ method: HTTPRequest.Method = .get, _ target: String, headerFields: HTTPFields = [:], body: Data? = nil) async throws -> Exchange {
        switch self {
        case .transport:
            let request = HTTPRequest(method: method, scheme: "https", authority: "api.test", path: target, headerFields: headerFields)
            let (response, data) = try await StubTransport(registry).send(request, body: body)
            return Exchange(status: response.status.code, headerFields: response.headerFields, body: data)
        case .urlProtocol:
            var request = URLRequest(url: URL(string: "https://api.test\(target)")!)
            request.httpMethod = method.rawValue
            for field in headerFields { request.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
            request.httpBody = body
            let (data, response) = try await URLSession.stubbed(by: registry).data(for: request)
            let http = response as! HTTPURLResponse
            var fields = HTTPFields()
            for case let (name as String, value as String) in http.allHeaderFields {
                fields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
            }
            return Exchange(status: http.statusCode, headerFields: fields, body: data)
        }
    }

    /// An `APIClient` whose requests this serving answers.
    func client(_ registry: StubRegistry, configuration: APIClient.Configuration = .init()) -> APIClient {
        let transport: any Transport = switch self {
        case .transport: StubTransport(registry)
        case .urlProtocol: URLSessionTransport(session: .stubbed(by: registry))
        }
        return APIClient(baseURL: URL(string: "https://api.test")!, configuration: configuration, transport: transport)
    }
}

/// What a client saw of one exchange.
struct Exchange: Sendable {
    let status: Int
    let headerFields: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
}
