/// A ``ResponseCache`` in memory whose entries expire a set time after they are stored.
///
/// ```swift
/// let cache = MemoryCache(expiry: .seconds(60))
/// ```
public final class MemoryCache: ResponseCache {
    private struct Entry {
        let response: CachedResponse
        let expires: Duration?
    }

    private let entries = Mutex<[CacheKey: Entry]>([:])
    /// The size at which expired entries are next swept out; doubling it keeps stores cheap on average.
    private let sweepAt = Mutex(64)
    private let expiry: Duration?
    private let stopwatch: Stopwatch

    /// Creates an empty cache whose entries live `expiry` (forever when `nil`), measured on `clock`.
    public init(expiry: Duration? = .seconds(300), clock: any Clock<Duration> = ContinuousClock()) {
        self.expiry = expiry
        self.stopwatch = Stopwatch(clock)
    }

    /// The entry for `key` unless it has expired.
    public func response(for key: CacheKey) async -> CachedResponse? {
        let now = stopwatch.elapsed()
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expires.map({ now < $0 }) ?? true else {
                entries[key] = nil
                return nil
            }
            return entry.response
        }
    }

    /// Stores `response` until the expiry has passed; expired entries are swept out whenever the
    /// cache has doubled since the last sweep.
    public func store(_ response: CachedResponse, for key: CacheKey) async {
        let now = stopwatch.elapsed()
        entries.withLock { entries in
            entries[key] = Entry(response: response, expires: expiry.map { now + $0 })
            sweepAt.withLock { sweepAt in
                guard entries.count >= sweepAt else { return }
                entries = entries.filter { $0.value.expires.map { now < $0 } ?? true }
                sweepAt = max(64, entries.count * 2)
            }
        }
    }

    /// Forgets the entry for `key`.
    public func removeResponse(for key: CacheKey) async {
        _ = entries.withLock { $0.removeValue(forKey: key) }
    }

    /// Forgets every entry.
    public func removeAll() async {
        entries.withLock { $0.removeAll() }
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
