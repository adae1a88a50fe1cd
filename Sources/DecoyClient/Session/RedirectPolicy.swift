/// Whether a client follows redirects, and how far: URLSession's behaviour by default.
///
/// ```swift
/// let client = APIClient(baseURL: apiURL, configuration: .init(redirects: .never))
/// ```
///
/// A followed redirect is a request of its own, sent through the transport (and so recorded by
/// a stub registry's journal) with the client's cookies for its URL. `301` and `302` turn a
/// `POST` into a `GET` without a body, `303` turns any method but `HEAD` into a `GET`, and `307`
/// and `308` keep the method and the body, as URLSession does.
public struct RedirectPolicy: Sendable, Hashable {
    /// How many redirects in a row are followed; `nil` follows none.
    public let limit: Int?

    private init(limit: Int?) {
        self.limit = limit
    }

    /// Follows up to 20 redirects in a row, URLSession's limit; one more fails the request as
    /// ``TransportFailure/Category/tooManyRedirects``.
    public static let follow = RedirectPolicy(limit: 20)

    /// Follows no redirect: the `3xx` response is the answer.
    public static let never = RedirectPolicy(limit: nil)

    /// Follows up to `limit` redirects in a row; one more fails the request as
    /// ``TransportFailure/Category/tooManyRedirects``.
    public static func follow(limit: Int) -> RedirectPolicy {
        precondition(limit >= 0, "A redirect limit cannot be negative")
        return RedirectPolicy(limit: limit)
    }
}
