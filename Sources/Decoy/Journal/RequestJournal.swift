import DecoyClient
import Foundation
import HTTPTypes

/// Every request an engine received, newest last, bounded so that a long run cannot exhaust memory.
///
/// Past the limit the oldest entries are dropped; ``totalCount`` keeps counting.
public final class RequestJournal: Sendable {
    private struct State {
        /// The kept entries in a ring, oldest at `oldest`: once full, each new entry takes the
        /// place of the oldest.
        var ring: [JournalEntry] = []
        var oldest = 0
        var total = 0
        /// The live readers; empty but for a dashboard open, so that recording checks only that.
        var subscribers: [JournalSubscription] = []

        /// The kept entries, oldest first.
        var entries: [JournalEntry] {
            get { Array(ring[oldest...] + ring[..<oldest]) }
            set {
                ring = newValue
                oldest = 0
            }
        }

        /// Keeps `entry`, at most `limit` entries in all.
        mutating func append(_ entry: JournalEntry, limit: Int) {
            guard ring.count == limit else {
                ring.append(entry)
                return
            }
            ring[oldest] = entry
            oldest = oldest + 1 == limit ? 0 : oldest + 1
        }
    }

    /// The most entries kept.
    public let limit: Int
    private let state = Mutex(State())

    /// Creates an empty journal keeping at most `limit` entries.
    public init(limit: Int = 10_000) {
        precondition(limit > 0, "a journal keeps at least one entry")
        self.limit = limit
    }

    /// A journal holding `entries`, oldest first, of `totalCount` requests received: a snapshot of
    /// another process's journal, read over its admin API.
    package init(entries: [JournalEntry], totalCount: Int) {
        limit = max(entries.count, 1)
        state.withLock { state in
            state.entries = entries
            state.total = max(totalCount, entries.count)
        }
    }

    /// The entries kept, oldest first.
    public var entries: [JournalEntry] { state.withLock { $0.entries } }

    /// How many requests were recorded since the last reset, including dropped ones.
    public var totalCount: Int { state.withLock { $0.total } }

    /// The entries kept that match `route`, oldest first.
    public func entries(matching route: Route) throws(DecoyError) -> [JournalEntry] {
        entries(matching: try RequestPattern(route))
    }

    /// The entries kept whose request fits `pattern`, oldest first.
    public func entries(matching pattern: RequestPattern) -> [JournalEntry] {
        entries.filter { pattern.matches($0.request) }
    }

    /// The entries of requests that no stub matched, oldest first.
    public var unmatchedEntries: [JournalEntry] { entries.filter { !$0.isMatched } }

    /// Checks that the number of kept requests matching `route` satisfies `count`.
    public func verify(_ route: Route, count: CallCount = .atLeast(1)) throws {
        let all = entries
        let pattern = try RequestPattern(route)
        let matching = all.count { pattern.matches($0.request) }
        guard count.accepts(matching) else {
            throw DecoyError.verificationFailed(
                route: route, expected: count, actual: matching, received: all.map { "\($0.sequence). \($0)" })
        }
    }

    /// Forgets the kept entries whose request fits `pattern`, as WireMock's `removeServeEvents` does;
    /// the total still counts them.
    ///
    /// - Returns: the entries forgotten, oldest first.
    @discardableResult
    public func remove(matching pattern: RequestPattern) -> [JournalEntry] {
        remove { pattern.matches($0.request) }
    }

    /// Forgets the kept entries `isRemoved` picks; the total still counts them.
    ///
    /// - Returns: the entries forgotten, oldest first.
    @discardableResult
    package func remove(where isRemoved: (JournalEntry) -> Bool) -> [JournalEntry] {
        state.withLock { state in
            let (removed, kept) = state.entries.reduce(into: ([JournalEntry](), [JournalEntry]())) { parts, entry in
                if isRemoved(entry) { parts.0.append(entry) } else { parts.1.append(entry) }
            }
            state.entries = kept
            return removed
        }
    }

    /// Forgets every entry and restarts the count; subscribers stay.
    public func reset() {
        state.withLock { state in
            state = State(subscribers: state.subscribers)
        }
    }

    /// A reader of every entry recorded from now on, which keeps at most `capacity` entries its
    /// reader has not taken; ``JournalSubscription/cancel()`` ends it.
    package func subscribe(capacity: Int) -> JournalSubscription {
        let subscription = JournalSubscription(capacity: capacity) { [self] in unsubscribe($0) }
        state.withLock { $0.subscribers.append(subscription) }
        return subscription
    }

    /// How many subscribers read the journal live, so that a test can see one let go.
    package var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    func unsubscribe(_ subscription: JournalSubscription) {
        state.withLock { $0.subscribers.removeAll { $0 === subscription } }
    }

    /// Records the request and its answer; returns where the events of an event stream are to be
    /// noted as they go out.
    @discardableResult
    func record(_ request: StubRequest, route: Route?, response: StubResponse, delay: Duration = .zero) -> SentEvents? {
        let date = Date()
        let sentEvents = response.events == nil ? nil : SentEvents()
        state.withLock { state in
            state.total += 1
            let entry = JournalEntry(
                sequence: state.total, date: date, request: request, route: route, response: response, delay: delay,
                sentEvents: sentEvents)
            // Offered under the lock, so that every subscriber sees the entries in their sequence.
            for subscriber in state.subscribers { subscriber.offer(entry) }
            state.append(entry, limit: limit)
        }
        return sentEvents
    }
}
