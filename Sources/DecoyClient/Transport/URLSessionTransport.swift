import Foundation
public import HTTPTypes
import HTTPTypesFoundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A ``Transport`` over Foundation's `URLSession`: the one to use in production and against a
/// ``MockServer`` in integration tests.
public struct URLSessionTransport: Transport {
    /// The session every request goes through.
    public let session: URLSession

    /// Creates a transport on `session` (a shared-cookie-free ephemeral session by default).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends the request through the session; `body` goes up as the request body.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        urlRequest.httpBody = body
        let (data, response) = try await session.data(for: urlRequest)
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return (httpResponse, data)
    }
}
