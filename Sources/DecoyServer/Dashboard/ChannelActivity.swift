import Decoy
import DecoyClient
import Foundation

/// What happens on a server's WebSockets, told as it happens to the dashboard's live feed,
/// `GET /__admin/channel-events`: channels opening and closing, and every message either way.
/// With no page open, telling is a check of an empty list.
final class ChannelActivity: Sendable {
    /// One thing that happened.
    enum Change: Sendable {
        case opened(MessageJournal.ChannelSummary)
        case message(MessageJournal.Event)
        case closed(MessageJournal.ChannelSummary, ChannelClose)
    }

    private let subscribers = Mutex<[FeedSubscription<Change>]>([])

    /// Offers `change` to every subscriber, under the lock, so that each sees the changes in order;
    /// makes it only when there is one.
    func tell(_ change: @autoclosure () -> Change) {
        subscribers.withLock { subscribers in
            guard !subscribers.isEmpty else { return }
            let change = change()
            for subscriber in subscribers { subscriber.offer(change) }
        }
    }

    /// A reader of every change from now on, keeping at most the feeds' capacity.
    func subscribe() -> FeedSubscription<Change> {
        // Holds the activity until cancelled, as a journal's subscription holds the journal.
        let subscription = FeedSubscription<Change>(capacity: FeedPace.capacity) { [self] gone in
            subscribers.withLock { $0.removeAll { $0 === gone } }
        }
        subscribers.withLock { $0.append(subscription) }
        return subscription
    }

    /// How many read the changes live, so that a test can see one let go.
    var subscriberCount: Int { subscribers.withLock(\.count) }
}
