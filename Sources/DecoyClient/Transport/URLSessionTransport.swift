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
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError where Self.meansUnparsableReply(error, for: urlRequest) {
            throw URLError(.cannotParseResponse, userInfo: [NSUnderlyingErrorKey: error])
        }
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return (httpResponse, data)
    }

    /// swift-corelibs-foundation reports a reply it cannot parse as `unknown` (a broken chunk, a
    /// bad header) or `unsupportedURL` (bytes that are not HTTP at all) where Darwin reports
    /// `cannotParseResponse`; for an http(s) request those codes can mean nothing else.
    private static func meansUnparsableReply(_ error: URLError, for request: URLRequest) -> Bool {
        guard ["http", "https"].contains(request.url?.scheme?.lowercased()) else { return false }
        return error.code == .unknown || error.code == .unsupportedURL
    }
}
