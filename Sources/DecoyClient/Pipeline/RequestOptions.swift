/// Settings one resource overrides for its own requests; `nil` keeps the client's.
public struct RequestOptions: Sendable {
    /// How long each attempt may take.
    public var timeout: Duration?
    /// When to retry; `RetryPolicy(maxAttempts: 1)` turns retries off for this resource.
    public var retry: RetryPolicy?
    /// Header field, query parameter and JSON key names this resource's logs leave visible.
    public var unredacted: Set<String>

    /// Creates options that override nothing.
    public init(timeout: Duration? = nil, retry: RetryPolicy? = nil, unredacted: Set<String> = []) {
        self.timeout = timeout
        self.retry = retry
        self.unredacted = unredacted
    }
}
