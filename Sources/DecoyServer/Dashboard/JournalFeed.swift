import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// `GET /__admin/events`: the journal's new entries as server-sent events, for as long as the
/// client stays. Each entry is an `event: request` whose data is its serve event, as
/// `GET /__admin/requests` lists it; when the client falls behind, an `event: skipped` with
/// `{"skipped": n}` says how many it missed.
///
/// Pulled, not pushed: the next events are made only when the server has sent the last ones, so
/// a client slower than the traffic leaves at most ``capacity`` entries waiting, and the rest
/// counted, rather than a growing buffer. And paced: at most one batch each ``interval``, so that
/// under a load test the feed encodes at most 250 entries a second, more than a page can show,
/// whatever the traffic: at a thousand a second, encoding them cost `decoy serve` 15% more CPU
/// per request under wrk (`scripts/benchmarks dashboard`).
struct JournalFeed: AsyncSequence, Sendable {
    typealias Element = Data

    /// The most entries waiting for a client.
    static let capacity = 50
    /// The least time between two batches.
    static let interval = Duration.milliseconds(200)

    let subscription: JournalSubscription
    let events: @Sendable ([JournalEntry]) -> [ServeEvent]

    /// The streamed reply, subscribed to `journal` from now on.
    static func stream(_ journal: RequestJournal, events: @escaping @Sendable ([JournalEntry]) -> [ServeEvent])
        -> Reply
    {
        let head = HTTPResponse(
            status: .ok,
            headerFields: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ])
        let feed = JournalFeed(subscription: journal.subscribe(capacity: capacity), events: events)
        return .stream(head, StreamedBody(feed))
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
            // A first piece at once, so that the client has the head before any request comes.
            guard hasGreeted else {
                hasGreeted = true
                return Data(": Decoy's journal, live\n\n".utf8)
            }
            if let lastBatch {
                // Cancelled with the task when the server stops: the subscription's wait then says so.
                try? await Task.sleep(until: lastBatch + JournalFeed.interval, clock: .continuous)
            }
            guard let batch = await feed.subscription.next() else { return nil }
            lastBatch = .now
            var text = ""
            for event in feed.events(batch.entries) {
                text += "event: request\ndata: \(Self.json(event))\n\n"
            }
            if batch.skipped > 0 { text += "event: skipped\ndata: {\"skipped\":\(batch.skipped)}\n\n" }
            return Data(text.utf8)
        }

        private static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()

        /// One line of JSON: the encoder escapes line breaks inside strings, and writes none of its own.
        private static func json(_ event: ServeEvent) -> String {
            String(decoding: (try? encoder.encode(event)) ?? Data("{}".utf8), as: UTF8.self)
        }
    }

    /// Ends the subscription when the server lets go of the iterator: the client went away, the
    /// server stopped, or the body ended.
    private final class Ending: Sendable {
        let subscription: JournalSubscription

        init(_ subscription: JournalSubscription) {
            self.subscription = subscription
        }

        deinit {
            subscription.cancel()
        }
    }
}
