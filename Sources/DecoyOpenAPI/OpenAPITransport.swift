public import Decoy
public import DecoyClient
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A generated client runs against stubs in-process: its requests go through the engine with the
/// journal, delays, throttles and faults of every other client of ``StubTransport``.
///
/// ```swift
/// let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
/// ```
extension StubTransport: ClientTransport {
    /// Sends `request` under `baseURL`; a fault comes out as the `URLError` ``send(_:body:)`` throws.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        try await OpenAPITransport(transport: self).send(
            request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A generated client talks HTTP to a ``MockServer`` (or any server) through the same transport
/// as ``APIClient``, and sees the same `URLError` codes for faults.
extension URLSessionTransport: ClientTransport {
    /// Sends `request` under `baseURL` through the session.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        try await OpenAPITransport(transport: self).send(
            request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A swift-openapi-generator `Client`'s transport over a Decoy ``Transport``: what ``StubTransport``
/// and ``URLSessionTransport`` are to a generated client.
package struct OpenAPITransport: ClientTransport {
    /// What sends each request.
    package let transport: any Transport

    /// Creates a transport sending through `transport`.
    package init(transport: some Transport) {
        self.transport = transport
    }

    /// Sends `request` under `baseURL` through ``transport``.
    package func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
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
