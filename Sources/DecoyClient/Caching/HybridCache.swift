/// The storage of ``ResponseCache/hybrid(front:back:)``: reads try the front, then the back
/// (copying a hit to the front); writes and removals go to both.
struct HybridCache: CacheStorage {
    /// The fast cache, usually a ``MemoryCache``.
    let front: any CacheStorage
    /// The lasting cache, usually a ``DiskCache``.
    let back: any CacheStorage

    /// Puts `front` before `back`.
    init(front: any CacheStorage, back: any CacheStorage) {
        self.front = front
        self.back = back
    }

    /// The front's entry, or the back's, which is then copied to the front.
    func response(for key: CacheKey) async -> CachedResponse? {
        if let hit = await front.response(for: key) { return hit }
        guard let hit = await back.response(for: key) else { return nil }
        await front.store(hit, for: key)
        return hit
    }

    /// Stores in both.
    func store(_ response: CachedResponse, for key: CacheKey) async {
        await front.store(response, for: key)
        await back.store(response, for: key)
    }

    /// Removes from both.
    func removeResponse(for key: CacheKey) async {
        await front.removeResponse(for: key)
        await back.removeResponse(for: key)
    }

    /// Empties both.
    func removeAll() async {
        await front.removeAll()
        await back.removeAll()
    }

    /// Both together: an entry in both counts twice, as it takes room in both.
    func byteCount() async -> Int {
        await front.byteCount() + back.byteCount()
    }
}
