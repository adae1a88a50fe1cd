public import HTTPTypes

/// A request that failed, as the failure stream and delegate see it.
public struct ClientFailure: Sendable {
    /// The request as the client built it, before interceptors.
    public let request: HTTPRequest
    /// How it failed.
    public let error: APIError
}

/// Hears of every failed request of a client, whatever code sent it: a place for global error
/// handling such as signing out on `401`.
public protocol APIClientDelegate: AnyObject, Sendable {
    /// Called once per failed request, after the last retry, before the error reaches the caller.
    func client(_ client: APIClient, didFail failure: ClientFailure)
}
