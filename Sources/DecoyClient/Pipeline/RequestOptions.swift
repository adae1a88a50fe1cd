public import Foundation

/// Settings one resource overrides for its own requests; `nil` keeps the client's.
public struct RequestOptions: Sendable {
    /// How long each attempt may take.
    public var timeout: Duration?
    /// When to retry; `RetryPolicy(maxAttempts: 1)` turns retries off for this resource.
    public var retry: RetryPolicy?
    /// Header field, query parameter and JSON key names this resource's logs leave visible.
    public var unredacted: Set<String>
    /// The JSON decoder for this resource's responses.
    public var decoder: JSONDecoder?
    /// What bad elements of a top-level array do.
    public var arrayDecoding: ArrayDecoding?
    /// When the cache answers.
    public var cachePolicy: CachePolicy?

    /// Creates options that override nothing.
    public init(
        timeout: Duration? = nil,
        retry: RetryPolicy? = nil,
        unredacted: Set<String> = [],
        decoder: JSONDecoder? = nil,
        arrayDecoding: ArrayDecoding? = nil,
        cachePolicy: CachePolicy? = nil
    ) {
        self.timeout = timeout
        self.retry = retry
        self.unredacted = unredacted
        self.decoder = decoder
        self.arrayDecoding = arrayDecoding
        self.cachePolicy = cachePolicy
    }
}
