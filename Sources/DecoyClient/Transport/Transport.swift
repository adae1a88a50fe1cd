public import Foundation
public import HTTPTypes

/// Carries one HTTP exchange for an ``APIClient``.
///
/// A transport is the only part of the client that touches the network, so swapping it is how
/// tests run the same client code against in-process stubs, a local mock server or a real API.
public protocol Transport: Sendable {
    /// Sends `request` with `body` and returns the response head and its complete body.
    ///
    /// Implementations throw their native errors (`URLError` for Foundation); ``APIClient``
    /// classifies them into a ``TransportFailure``.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data)
}
