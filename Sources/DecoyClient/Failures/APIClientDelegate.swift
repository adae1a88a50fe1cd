public import HTTPTypes

/// Hears of every failed request of a client, whatever code sent it: a place for global error
/// handling such as signing out on `401`.
public protocol APIClientDelegate: AnyObject, Sendable {
    /// Called once per failed request, after the last retry, before `error` reaches the caller,
    /// who then catches the same value; `request` is the request as the client built it, before
    /// interceptors, so that a failure can be told by where it went (a `401` from `/login` is no
    /// reason to sign out).
    func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest)

    /// Called once per failed request, without the request.
    @available(*, deprecated, message: "implement client(_:didFail:for:), which is also given the request")
    func client(_ client: APIClient, didFail error: APIError)
}

extension APIClientDelegate {
    /// Hands the failure to ``client(_:didFail:)``, for a delegate written before the request was
    /// given; implement this method instead.
    @available(*, deprecated, message: "implement client(_:didFail:for:), which is also given the request")
    public func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest) {
        self.client(client, didFail: error)
    }

    /// Does nothing: a delegate implements ``client(_:didFail:for:)``.
    public func client(_ client: APIClient, didFail error: APIError) {}
}

/// A failed request, as the client's ``APIClient/failures()`` stream tells it: the request and
/// how it failed.
public struct ClientFailure: Sendable {
    /// The request as the client built it, before interceptors.
    public let request: HTTPRequest
    /// How it failed: the ``APIError`` its caller catches.
    public let error: APIError

    /// A failure of `request` with `error`.
    public init(request: HTTPRequest, error: APIError) {
        self.request = request
        self.error = error
    }
}
