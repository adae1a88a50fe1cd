/// Hears of every failed request of a client, whatever code sent it: a place for global error
/// handling such as signing out on `401`.
public protocol APIClientDelegate: AnyObject, Sendable {
    /// Called once per failed request, after the last retry, before `error` reaches the caller,
    /// who then catches the same value.
    func client(_ client: APIClient, didFail error: APIError)
}
