/// When a response comes from the client's ``ResponseCache`` and when it goes into it.
///
/// A resource's own policy beats the client's.
public enum CachePolicy: Sendable, Hashable {
    /// Always the network; the cache is neither read nor written.
    case networkOnly
    /// The cached response when there is one, otherwise the network, whose answer is stored.
    case cacheElseNetwork
    /// Always the network, whose answer is stored for later cache reads.
    case networkUpdatingCache
    /// The cached response first, when there is one, then the network's answer, which is stored:
    /// two deliveries through ``APIClient/responses(for:)``; a single `send` gets the network's.
    case cacheThenNetwork

    var readsCacheFirst: Bool { self == .cacheElseNetwork || self == .cacheThenNetwork }
    var storesResponses: Bool { self != .networkOnly }
}
