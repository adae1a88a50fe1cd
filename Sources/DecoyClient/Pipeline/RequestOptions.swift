import Foundation

/// Settings one resource overrides for its own requests, set by its modifiers; `nil` keeps the client's.
struct RequestOptions: Sendable {
    /// How long each attempt may take.
    var timeout: Duration?
    /// When to retry; `RetryPolicy(maxAttempts: 1)` turns retries off for this resource.
    var retry: RetryPolicy?
    /// Header field, query parameter and JSON key names this resource's logs leave visible.
    var unredacted: Set<String> = []
    /// The JSON decoder for this resource's responses.
    var decoder: JSONDecoder?
    /// Whether bad elements of a top-level array are dropped.
    var lossyArrays: Bool?
    /// When the cache answers.
    var cachePolicy: CachePolicy?
}
