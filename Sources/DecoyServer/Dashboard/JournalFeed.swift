import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// A live feed of the dashboard as server-sent events, for as long as the client stays: `GET
/// /__admin/events`, the journal's new entries, each an `event: request` whose data is its serve
/// event, as `GET /__admin/requests` lists it, and `GET /__admin/channel-events`, what happens on the
/// server's WebSockets (``ChannelActivity``). When the client falls behind, an `event: skipped` with
/// `{"skipped": n}` says how many entries it missed.
///
/// Pulled, not pushed: the next events are made only when the server has sent the last ones, so
/// a client slower than the traffic leaves at most ``FeedPace/capacity`` entries waiting, and the rest
/// counted, rather than a growing buffer. And paced: at most one batch each ``FeedPace/interval``, so that
/// under a load test the feed encodes at most 250 entries a second, more than a page can show,
/// whatever the traffic: at a thousand a second, encoding them cost `decoy serve` 15% more CPU
/// per request under wrk (`scripts/benchmarks dashboard`).
struct JournalFeed<Entry: Sendable>: AsyncSequence, Sendable {
    typealias Element = Data

    let subscription: FeedSubscription<Entry>
    /// The first piece, a comment sent at once, so that the client has the head before any entry comes.
    let greeting: String
    /// A batch's entries as server-sent events.
    let words: @Sendable ([Entry]) -> String

    /// The streamed reply of `subscription`'s entries, put into events by `words`.
    static func stream(
        _ subscription: FeedSubscription<Entry>, greeting: String, words: @escaping @Sendable ([Entry]) -> String
    ) -> Reply {
        let head = HTTPResponse(
            status: .ok,
            headerFields: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ])
        return .stream(head, StreamedBody(JournalFeed(subscription: subscription, greeting: greeting, words: words)))
    }

    func makeAsyncIterator() -> Iterator { Iterator(feed: self) }

    struct Iterator: AsyncIteratorProtocol {
        private let feed: JournalFeed
        private let ending: Ending
        private var hasGreeted = false
        private var lastBatch: ContinuousClock.Instant?

        init(feed: JournalFeed) {
            self.feed = feed
            ending = Ending(feed.subscription)
        }

        mutating func next() async -> Data? {
            // A first piece at once, so that the client has the head before any entry comes.
            guard hasGreeted else {
                hasGreeted = true
                return Data(": \(feed.greeting)\n\n".utf8)
            }
            if let lastBatch {
                // Cancelled with the task when the server stops: the subscription's wait then says so.
                try? await ContinuousClock().sleepOnTimer(until: lastBatch + FeedPace.interval)
            }
            guard let batch = await feed.subscription.next() else { return nil }
            lastBatch = .now
            var text = feed.words(batch.entries)
            if batch.skipped > 0 { text += "event: skipped\ndata: {\"skipped\":\(batch.skipped)}\n\n" }
            return Data(text.utf8)
        }
    }

    /// Ends the subscription when the server lets go of the iterator: the client went away, the
    /// server stopped, or the body ended.
    private final class Ending: Sendable {
        let subscription: FeedSubscription<Entry>

        init(_ subscription: FeedSubscription<Entry>) {
            self.subscription = subscription
        }

        deinit {
            subscription.cancel()
        }
    }
}

/// How the dashboard's feeds are paced: one number for both, so that neither costs the server more.
enum FeedPace {
    /// The most entries waiting for a client.
    static let capacity = 50
    /// The least time between two batches.
    static let interval = Duration.milliseconds(200)

    /// `value` as one line of JSON: the encoder escapes line breaks inside strings, and writes none of its own.
    static func json(_ value: some Encodable) -> String {
        String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

extension JournalFeed where Entry == JournalEntry {
    /// `GET /__admin/events`: the streamed reply, subscribed to `journal` from now on, each entry's
    /// serve event as `events` makes it.
    static func stream(_ journal: RequestJournal, events: @escaping @Sendable ([JournalEntry]) -> [ServeEvent])
        -> Reply
    {
        stream(journal.subscribe(capacity: FeedPace.capacity), greeting: "Decoy's journal, live") { entries in
            events(entries).map { "event: request\ndata: \(FeedPace.json($0))\n\n" }.joined()
        }
    }
}
