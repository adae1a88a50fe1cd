import DecoyClient
public import Foundation
public import HTTPTypes

/// One request the engine received, and how it was answered.
public struct JournalEntry: Sendable {
    /// The position of this request among all the engine received, from 1; it keeps counting past the journal's limit.
    public let sequence: Int
    /// When the request arrived.
    public let date: Date
    /// The request as received.
    public let request: StubRequest
    /// The route of the stub that answered; `nil` when nothing matched.
    public let route: Route?
    /// The response given, or the fault produced.
    public let response: StubResponse
    /// How long the engine held the answer, the response's delay or the default one.
    public let delay: Duration
    /// The events of an event stream as they go out; `nil` for any other response.
    package let sentEvents: SentEvents?

    /// Creates an entry, as a journal records it or as it is read back from a server's admin API.
    package init(
        sequence: Int, date: Date, request: StubRequest, route: Route?, response: StubResponse, delay: Duration,
        sentEvents: SentEvents? = nil
    ) {
        self.sequence = sequence
        self.date = date
        self.request = request
        self.route = route
        self.response = response
        self.delay = delay
        self.sentEvents = sentEvents
    }

    /// The status answered, or `nil` when a fault was produced instead; a proxy failure has both,
    /// as the server answers it with its status.
    public var status: HTTPResponse.Status? { response.fault?.isAnsweredOverHTTP ?? true ? response.status : nil }
    /// The fault produced, if any.
    public var fault: Fault? { response.fault }

    /// How many events of an event stream went out so far, while the stream goes on; `nil` for
    /// any other response.
    public var sentEventCount: Int? { sentEvents?.count }

    /// When each event of an event stream went out, counted from the head on the engine's clock (a
    /// test clock's time in tests), the first 10,000 of them; `nil` for any other response.
    public var sentEventOffsets: [Duration]? { sentEvents?.offsets }

    /// Whether a stub answered the request.
    public var isMatched: Bool { route != nil }
}

extension JournalEntry: CustomStringConvertible {
    /// `METHOD target → outcome`, as verification messages list requests.
    public var description: String {
        let outcome = fault.map { "fault \($0)" } ?? status.map { "\($0.code)" } ?? "no answer"
        return "\(request) → \(outcome)\(route == nil ? " (unmatched)" : "")"
    }
}

/// The events of one served event stream as they go out, kept by its journal entry: a test reads
/// how many reached the serving and when, while the stream goes on.
package final class SentEvents: Sendable {
    private struct State {
        var count = 0
        var offsets: [Duration] = []
    }

    private let state = Mutex(State())
    /// The most offsets kept; the count goes on past them, for a stream repeated forever.
    package static let offsetLimit = 10_000

    package init() {}

    /// How many events went out.
    package var count: Int { state.withLock { $0.count } }

    /// When each event went out, counted from the head on the engine's clock (a test clock's
    /// time in tests), the first ``offsetLimit`` of them.
    package var offsets: [Duration] { state.withLock { $0.offsets } }

    /// `count` events went out together, `offset` after the head.
    func note(_ count: Int, at offset: Duration) {
        state.withLock { state in
            state.count += count
            let room = max(0, Self.offsetLimit - state.offsets.count)
            state.offsets.append(contentsOf: repeatElement(offset, count: min(count, room)))
        }
    }
}
