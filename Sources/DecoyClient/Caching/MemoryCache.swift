/// A ``ResponseCache`` in memory, bounded in bytes: when an entry would take it past its
/// capacity, the least recently used entries leave first. Entries may also expire a set time
/// after they are stored.
///
/// ```swift
/// let cache = MemoryCache(expiry: .seconds(60), capacity: 16 * 1024 * 1024)
/// ```
public final class MemoryCache: ResponseCache {
    private struct Entry {
        let response: CachedResponse
        let size: Int
        let expires: Duration?
        /// The neighbours in the order of use: `newer` towards the most recent.
        var older: CacheKey?
        var newer: CacheKey?
    }

    /// The entries, linked from the least recently used to the most, so that a hit and an
    /// eviction each cost the same whatever the number of entries.
    private struct Entries {
        var byKey: [CacheKey: Entry] = [:]
        var oldest: CacheKey?
        var newest: CacheKey?
        var bytes = 0

        mutating func remove(_ key: CacheKey) {
            guard let entry = byKey.removeValue(forKey: key) else { return }
            if let older = entry.older { byKey[older]?.newer = entry.newer } else { oldest = entry.newer }
            if let newer = entry.newer { byKey[newer]?.older = entry.older } else { newest = entry.older }
            bytes -= entry.size
        }

        mutating func insertAsNewest(_ entry: Entry, for key: CacheKey) {
            var entry = entry
            entry.older = newest
            entry.newer = nil
            if let newest { byKey[newest]?.newer = key } else { oldest = key }
            newest = key
            byKey[key] = entry
            bytes += entry.size
        }
    }

    private let entries = Mutex(Entries())
    private let expiry: Duration?
    /// The most bytes the entries may take together.
    public let capacity: Int
    private let stopwatch: Stopwatch

    /// Creates an empty cache of at most `capacity` bytes (32 MiB by default) whose entries live
    /// `expiry` (forever when `nil`), measured on `clock`.
    public init(
        expiry: Duration? = .seconds(300), capacity: Int = 32 * 1024 * 1024,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        precondition(capacity >= 0, "a cache's capacity is a number of bytes")
        self.expiry = expiry
        self.capacity = capacity
        self.stopwatch = Stopwatch(clock)
    }

    /// The bytes the entries take now (bodies and header fields), never more than ``capacity``.
    public var byteCount: Int { entries.withLock { $0.bytes } }

    /// The entry for `key` unless it has expired; it becomes the most recently used.
    public func response(for key: CacheKey) async -> CachedResponse? {
        let now = stopwatch.elapsed()
        return entries.withLock { entries in
            guard let entry = entries.byKey[key] else { return nil }
            entries.remove(key)
            guard entry.expires.map({ now < $0 }) ?? true else { return nil }
            entries.insertAsNewest(entry, for: key)
            return entry.response
        }
    }

    /// Stores `response` as the most recently used entry, first removing the least recently
    /// used ones until it fits; a response larger than the whole capacity is not kept.
    public func store(_ response: CachedResponse, for key: CacheKey) async {
        let now = stopwatch.elapsed()
        let size = response.size
        entries.withLock { entries in
            entries.remove(key)
            guard size <= capacity else { return }
            while entries.bytes + size > capacity, let oldest = entries.oldest { entries.remove(oldest) }
            entries.insertAsNewest(Entry(response: response, size: size, expires: expiry.map { now + $0 }), for: key)
        }
    }

    /// Forgets the entry for `key`.
    public func removeResponse(for key: CacheKey) async {
        entries.withLock { $0.remove(key) }
    }

    /// Forgets every entry.
    public func removeAll() async {
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
