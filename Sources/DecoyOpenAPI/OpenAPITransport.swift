public import Decoy
public import DecoyClient
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A swift-openapi-generator `Client`'s transport over a Decoy ``Transport``: over a
/// ``StubRegistry``, the generated client runs against stubs in-process, with the journal,
/// delays, throttles and faults of ``StubTransport``.
///
/// ```swift
/// let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: OpenAPITransport(registry))
/// ```
public struct OpenAPITransport: ClientTransport {
    /// What sends each request.
    public let transport: any Transport

    /// Creates a transport answering from `registry` in-process.
    public init(_ registry: StubRegistry) {
        self.init(transport: StubTransport(registry))
    }

    /// Creates a transport sending through `transport`, such as `URLSessionTransport` to a `MockServer`.
    public init(transport: some Transport) {
        self.transport = transport
    }

    /// Sends `request` under `baseURL`; a fault comes out as the `URLError` ``StubTransport`` throws.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        var request = request
        // The generated client gives the path alone; the server URL's own path comes before it.
        let basePath = baseURL.path(percentEncoded: true)
        request.path = (basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath) + (request.path ?? "")
        request.scheme = baseURL.scheme
        request.authority = baseURL.host(percentEncoded: true).map { host in
            // An IPv6 address is bracketed in an authority, not in a URL's host.
            let bracketed = host.contains(":") ? "[\(host)]" : host
            return baseURL.port.map { "\(bracketed):\($0)" } ?? bracketed
        }
        let data: Data? = if let body { try await Data(collecting: body, upTo: .max) } else { nil }
        let (response, responseBody) = try await transport.send(request, body: data)
        return (response, HTTPBody(responseBody))
    }
}
