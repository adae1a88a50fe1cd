/// Two ``ResponseCache``s as one: reads try the front, then the back (copying a hit to the
/// front); writes and removals go to both.
///
/// ```swift
/// let cache = HybridCache(front: MemoryCache(expiry: .seconds(60)), back: DiskCache(folder: cachesFolder))
/// ```
public struct HybridCache: ResponseCache {
    /// The fast cache, usually a ``MemoryCache``.
    public let front: any ResponseCache
    /// The lasting cache, usually a ``DiskCache``.
    public let back: any ResponseCache

    /// Puts `front` before `back`.
    public init(front: any ResponseCache, back: any ResponseCache) {
        self.front = front
        self.back = back
    }

    /// The front's entry, or the back's, which is then copied to the front.
    public func response(for key: CacheKey) async -> CachedResponse? {
        if let hit = await front.response(for: key) { return hit }
        guard let hit = await back.response(for: key) else { return nil }
        await front.store(hit, for: key)
        return hit
    }

    /// Stores in both.
    public func store(_ response: CachedResponse, for key: CacheKey) async {
        await front.store(response, for: key)
        await back.store(response, for: key)
    }

    /// Removes from both.
    public func removeResponse(for key: CacheKey) async {
        await front.removeResponse(for: key)
        await back.removeResponse(for: key)
    }

    /// Empties both.
    public func removeAll() async {
        await front.removeAll()
        await back.removeAll()
    }
}
