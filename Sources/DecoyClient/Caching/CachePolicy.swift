/// When a response comes from the client's ``ResponseCache`` and when it goes into it.
///
/// A resource's own policy beats the client's. ``http`` follows the response's caching header
/// fields; the other policies are explicit and beat them: they serve a stored response however
/// old, as `URLRequest`'s `.returnCacheDataElseLoad` does. Under every policy HTTP still decides
/// what is never stored (`no-store`, `Vary: *`) and which request an entry answers (`Vary`,
/// `Authorization`).
public enum CachePolicy: Sendable, Hashable {
    /// HTTP's own rules for a private cache (RFC 9111), as `URLRequest`'s
    /// `.useProtocolCachePolicy`: a fresh response is served; a stale one, or one marked
    /// `no-cache`, is revalidated with its `ETag` or `Last-Modified`, and a `304 Not Modified`
    /// answers with the stored body. Reads (`GET`, `HEAD`) only.
    case http
    /// Always the network; the cache is neither read nor written.
    case networkOnly
    /// The cached response when there is one, however old, otherwise the network, whose answer is stored.
    case cacheElseNetwork
    /// Always the network, whose answer is stored for later cache reads.
    case networkUpdatingCache
    /// The cached response first, however old, when there is one, then the network's answer
    /// (revalidating the stored one when it can), which is stored: two deliveries through
    /// ``APIClient/responses(for:)``; a single `send` gets the network's.
    case cacheThenNetwork

    var readsCache: Bool { self != .networkOnly && self != .networkUpdatingCache }
    var storesResponses: Bool { self != .networkOnly }
}
