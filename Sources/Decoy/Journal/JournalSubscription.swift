import DecoyClient

/// A reader of the entries a journal records from the moment it subscribes: the dashboard's live feed.
package typealias JournalSubscription = FeedSubscription<JournalEntry>

/// A reader of what a source offers from the moment it subscribes: the request journal's entries,
/// or what happens on a server's WebSockets, for the dashboard's live feeds.
///
/// Bounded: it keeps at most `capacity` entries its reader has not taken yet, and counts the ones it
/// had to let go instead, so a reader that cannot keep up with the traffic is told how many it
/// missed rather than holding up the request path or growing without end.
package final class FeedSubscription<Entry: Sendable>: Sendable {
    /// What a reader takes at once: the entries offered since its last take, oldest first, and how
    /// many were offered after them that it missed, having fallen `capacity` behind.
    package struct Batch: Sendable {
        package let entries: [Entry]
        package let skipped: Int
    }

    private struct Buffer {
        var entries: [Entry] = []
        var skipped = 0
        var reader: CheckedContinuation<Void, Never>?
        var isCancelled = false
    }

    /// The most entries kept for the reader.
    package let capacity: Int
    /// Takes the subscription off its source's list.
    private let unsubscribe: @Sendable (FeedSubscription) -> Void
    private let buffer = Mutex(Buffer())

    /// A subscription that keeps at most `capacity` entries; `unsubscribe` takes it off its source's
    /// list when it is cancelled.
    package init(capacity: Int, unsubscribe: @escaping @Sendable (FeedSubscription) -> Void) {
        precondition(capacity > 0, "a subscription keeps at least one entry")
        self.capacity = capacity
        self.unsubscribe = unsubscribe
    }

    /// Takes `entry`, or counts it as missed when the reader is `capacity` behind; called by the
    /// source under its lock, so that entries arrive in the order they were offered.
    package func offer(_ entry: Entry) {
        let reader = buffer.withLock { buffer -> CheckedContinuation<Void, Never>? in
            if buffer.entries.count < capacity {
                buffer.entries.append(entry)
            } else {
                buffer.skipped += 1
            }
            defer { buffer.reader = nil }
            return buffer.reader
        }
        reader?.resume()
    }

    /// The entries recorded since the last call, waiting for one if there are none; `nil` once the
    /// subscription is cancelled, or the task waiting is.
    package func next() async -> Batch? {
        while true {
            if let batch = take() { return batch }
            if buffer.withLock(\.isCancelled) || Task.isCancelled { return nil }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = buffer.withLock { buffer in
                        guard buffer.entries.isEmpty, buffer.skipped == 0, !buffer.isCancelled else { return true }
                        buffer.reader = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                wake()
            }
            if Task.isCancelled { return nil }
        }
    }

    /// Stops the entries coming; a reader waiting in ``next()`` gets `nil`.
    package func cancel() {
        unsubscribe(self)
        buffer.withLock { $0.isCancelled = true }
        wake()
    }

    /// What is waiting for the reader, emptied; `nil` when nothing is.
    private func take() -> Batch? {
        buffer.withLock { buffer in
            guard !buffer.entries.isEmpty || buffer.skipped > 0 else { return nil }
            defer { (buffer.entries, buffer.skipped) = ([], 0) }
            return Batch(entries: buffer.entries, skipped: buffer.skipped)
        }
    }

    private func wake() {
        buffer.withLock { buffer in
            defer { buffer.reader = nil }
            return buffer.reader
        }?.resume()
    }
}
