import Decoy
import DecoyClient
import DecoyServer
import Foundation
import HTTPTypes
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ways to serve a registry; stub tests run against each, so that every stub kind, stub
/// file field and matcher gives the same answer in-process and over the wire.
enum Serving: String, CaseIterable, CustomTestStringConvertible {
    /// `StubTransport`, the engine plugged into `APIClient`'s transport slot.
    case transport
    /// Plain `URLSession` answered by `StubURLProtocol`.
    case urlProtocol
    /// Plain `URLSession` against a `MockServer` on an ephemeral port.
    case server

    var testDescription: String { rawValue }

    /// One exchange through this serving, as the client sees it.
    func exchange(_ registry: StubRegistry, _ method: HTTPRequest.Method = .get, _ target: String, headerFields: HTTPFields = [:], body: Data? = nil) async throws -> Exchange {
        switch self {
        case .transport:
            let request = HTTPRequest(method: method, scheme: "https", authority: "api.test", path: target, headerFields: headerFields)
            let (response, data) = try await StubTransport(registry).send(request, body: body)
            return Exchange(status: response.status.code, headerFields: response.headerFields, body: data)
        case .urlProtocol, .server:
            let server = self == .server ? MockServer(registry: registry) : nil
            try server?.start()
            defer { server?.stop() }
            var request = URLRequest(url: URL(string: "\(server?.baseURL.absoluteString ?? "https://api.test")\(target)")!)
            request.httpMethod = method.rawValue
            for field in headerFields { request.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
            request.httpBody = body
            let session = server == nil ? URLSession.stubbed(by: registry) : URLSession(configuration: .ephemeral)
            let (data, response) = try await session.data(for: request)
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
        switch self {
        case .transport:
            return APIClient(baseURL: URL(string: "https://api.test")!, configuration: configuration, transport: StubTransport(registry))
        case .urlProtocol:
            return APIClient(baseURL: URL(string: "https://api.test")!, configuration: configuration, transport: URLSessionTransport(session: .stubbed(by: registry)))
        case .server:
            let server = MockServer(registry: registry)
            try! server.start()
            return APIClient(baseURL: server.baseURL, configuration: configuration, transport: ServedTransport(server: server))
        }
    }
}

/// A `URLSessionTransport` that keeps its server running for as long as a client uses it.
private struct ServedTransport: Transport {
    let server: MockServer
    let base = URLSessionTransport()

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await base.send(request, body: body)
    }
}

/// What a client saw of one exchange.
struct Exchange: Sendable {
    let status: Int
    let headerFields: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
}
