/// The storage of ``ResponseCache/memory(expiry:capacity:clock:)``, bounded in bytes: when an
/// entry would take it past its capacity, the least recently used entries leave first. Entries
/// may also expire a set time after they are stored.
final class MemoryCache: CacheStorage {
    /// One entry, linked to its neighbours in the order of use, so that a hit or an eviction
    /// relinks references instead of looking keys up again. The links do not own: `byKey` keeps
    /// every linked entry alive, and an entry is unlinked before it leaves `byKey`, so a long
    /// chain is never released recursively.
    private final class Entry {
        let key: CacheKey
        let response: CachedResponse
        let size: Int
        let expires: Duration?
        /// Towards the least recently used.
        unowned(unsafe) var older: Entry?
        /// Towards the most recently used.
        unowned(unsafe) var newer: Entry?

        init(key: CacheKey, response: CachedResponse, size: Int, expires: Duration?) {
            self.key = key
            self.response = response
            self.size = size
            self.expires = expires
        }
    }

    /// The entries by key and in the order of use, from the least recently used to the most.
    private struct Entries {
        var byKey: [CacheKey: Entry] = [:]
        unowned(unsafe) var oldest: Entry?
        unowned(unsafe) var newest: Entry?
        var bytes = 0

        mutating func unlink(_ entry: Entry) {
            if let newer = entry.newer { newer.older = entry.older } else { newest = entry.older }
            if let older = entry.older { older.newer = entry.newer } else { oldest = entry.newer }
            entry.older = nil
            entry.newer = nil
        }

        mutating func linkAsNewest(_ entry: Entry) {
            entry.older = newest
            if let newest { newest.newer = entry } else { oldest = entry }
            newest = entry
        }

        mutating func remove(_ key: CacheKey) {
            guard let entry = byKey.removeValue(forKey: key) else { return }
            unlink(entry)
            bytes -= entry.size
        }

        mutating func insert(_ entry: Entry) {
            byKey[entry.key] = entry
            linkAsNewest(entry)
            bytes += entry.size
        }
    }

    private let entries = Mutex(Entries())
    private let expiry: Duration?
    /// Whether an entry outlives `expiry` while HTTP's rules call it fresh: true for the default
    /// expiry, which is no choice of the user's and must not undercut `max-age`.
    private let extendedByFreshness: Bool
    /// The most bytes the entries may take together.
    let capacity: Int
    private let stopwatch: Stopwatch

    /// How long an entry lives when the user sets no expiry.
    static let defaultExpiry = Duration.seconds(300)

    /// Creates an empty cache of at most `capacity` bytes (32 MiB by default) whose entries live
    /// `expiry` (forever when `nil`), measured on `clock`, or, when `extendedByFreshness`, for as
    /// long as they are fresh if that is longer.
    init(
        expiry: Duration? = defaultExpiry, extendedByFreshness: Bool = false, capacity: Int = 32 * 1024 * 1024,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        precondition(capacity >= 0, "a cache's capacity is a number of bytes")
        self.expiry = expiry
        self.extendedByFreshness = extendedByFreshness
        self.capacity = capacity
        self.stopwatch = Stopwatch(clock)
    }

    /// How long `response` lives once stored.
    private func lifetime(of response: CachedResponse) -> Duration? {
        guard let expiry, extendedByFreshness else { return expiry }
        return max(expiry, response.remainingFreshness)
    }

    /// The bytes the entries take now (bodies and header fields), never more than ``capacity``.
    func byteCount() async -> Int { entries.withLock { $0.bytes } }

    /// The entry for `key` unless it has expired; it becomes the most recently used.
    func response(for key: CacheKey) async -> CachedResponse? {
        let now = stopwatch.elapsed()
        return entries.withLock { entries in
            guard let entry = entries.byKey[key] else { return nil }
            guard entry.expires.map({ now < $0 }) ?? true else {
                entries.remove(key)
                return nil
            }
            entries.unlink(entry)
            entries.linkAsNewest(entry)
            return entry.response
        }
    }

    /// Stores `response` as the most recently used entry, first removing the least recently
    /// used ones until it fits; a response larger than the whole capacity is not kept.
    func store(_ response: CachedResponse, for key: CacheKey) async {
        let now = stopwatch.elapsed()
        let size = response.size
        entries.withLock { entries in
            entries.remove(key)
            guard size <= capacity else { return }
            while entries.bytes + size > capacity, let oldest = entries.oldest { entries.remove(oldest.key) }
            entries.insert(
                Entry(key: key, response: response, size: size, expires: lifetime(of: response).map { now + $0 }))
        }
    }

    /// Forgets the entry for `key`.
    func removeResponse(for key: CacheKey) async {
        entries.withLock { $0.remove(key) }
    }

    /// Forgets every entry.
    func removeAll() async {
        entries.withLock { $0 = Entries() }
    }
}

/// Time elapsed on any clock since the stopwatch was made, as a plain `Duration`, so that
/// deadlines can be kept without knowing the clock's instant type.
struct Stopwatch: Sendable {
    let elapsed: @Sendable () -> Duration

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }
}
