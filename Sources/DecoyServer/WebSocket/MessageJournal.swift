import Decoy
import DecoyClient
import Foundation

/// The messages the server's channels received and sent, as WireMock's message journal keeps them:
/// `GET /__admin/messages`, `count`, `find` and `wait-for-count` read it. Bounded like the request
/// journal: past ``limit`` events, the oldest go.
final class MessageJournal: Sendable {
    /// One message received or sent on a channel.
    struct Event: Sendable {
        enum Kind: String, Sendable { case received, sent }

        let id = UUID()
        let kind: Kind
        let channel: ChannelSummary
        let message: ChannelMessage
        /// The id of the message stub that matched a received message, or that sent this one.
        let stubID: String?
        let date = Date()
    }

    /// A channel as the journal and the admin API name it.
    struct ChannelSummary: Sendable {
        let id: UUID
        let request: StubRequest
        let opened: Date
    }

    /// A test of the journal's events: the channel's request and the message's text.
    typealias Pattern = @Sendable (Event) -> Bool

    private struct Waiter {
        let pattern: Pattern
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var events: [Event] = []
        var waiters: [UUID: Waiter] = [:]
        /// Waits whose time ran out before they began waiting.
        var expired: Set<UUID> = []
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    func record(_ event: Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            // The oldest go a quarter of the limit at a time, so that recording past the limit does
            // not move every event each time.
            if state.events.count > limit + limit / 4 { state.events.removeFirst(state.events.count - limit) }
            let events = state.events
            let met = state.waiters.filter { _, waiter in events.count(where: waiter.pattern) >= waiter.count }
            for id in met.keys { state.waiters[id] = nil }
            return met.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    var events: [Event] { state.withLock { Array($0.events.suffix(limit)) } }

    func events(matching pattern: Pattern) -> [Event] { events.filter(pattern) }

    func removeAll() { state.withLock { $0.events = [] } }

    /// Forgets the events `pattern` matches; returns them.
    @discardableResult
    func remove(where pattern: Pattern) -> [Event] {
        state.withLock { state in
            let removed = state.events.filter(pattern)
            state.events.removeAll(where: pattern)
            return removed
        }
    }

    /// The events `pattern` matches once there are `count` of them, or those there are when
    /// `timeout` passes on `clock`, whichever comes first.
    func events(
        matching pattern: @escaping Pattern, count: Int, timeout: Duration, clock: any Clock<Duration>
    ) async -> [Event] {
        let id = UUID()
        let timer = Task {
            try? await clock.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            resumeWaiter(id)
        }
        await withCheckedContinuation { continuation in
            let met = state.withLock { state in
                guard state.events.count(where: pattern) < count, state.expired.remove(id) == nil else { return true }
                state.waiters[id] = Waiter(pattern: pattern, count: count, continuation: continuation)
                return false
            }
            if met { continuation.resume() }
        }
        timer.cancel()
        return events(matching: pattern)
    }

    private func resumeWaiter(_ id: UUID) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                state.expired.insert(id)
                return nil as Waiter?
            }
            return waiter
        }
        waiter?.continuation.resume()
    }
}
