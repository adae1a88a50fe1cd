package import Foundation
public import HTTPTypes

/// One server-sent event (`text/event-stream`), and the wait before it is sent.
public struct ServerEvent: Sendable, Hashable {
    /// The `id` field, which a reconnecting client sends back as `Last-Event-ID`.
    public var id: String?
    /// The `event` field, the event's type; a client takes `message` when there is none.
    public var event: String?
    /// The `data` field, its lines sent as one `data:` line each.
    public var data: String?
    /// The `retry` field: how long a client waits before it reconnects.
    public var retry: Duration?
    /// A comment line, which clients ignore: a keep-alive, or a note for who reads the wire.
    public var comment: String?
    /// How long to wait before sending it, from the event before (or from the head, for the first).
    public var delay: Delay

    /// An event of these fields, sent after `delay`.
    public init(
        id: String? = nil, event: String? = nil, data: String? = nil, retry: Duration? = nil,
        comment: String? = nil, delay: Delay = .none
    ) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
        self.comment = comment
        self.delay = delay
    }

    /// An event whose `data` is `value` as JSON, its keys sorted.
    public init(
        id: String? = nil, event: String? = nil, json value: some Encodable, retry: Duration? = nil,
        comment: String? = nil, delay: Delay = .none
    ) throws {
        let data = String(decoding: try JSONEncoder.sortingKeys().encode(value), as: UTF8.self)
        self.init(id: id, event: event, data: data, retry: retry, comment: comment, delay: delay)
    }

    /// The event as it goes on the wire: a line per field, then a blank line.
    package var wire: Data {
        var wire = Data()
        if let comment { Self.append("", comment, to: &wire) }
        if let id { Self.append("id", id, to: &wire) }
        if let event { Self.append("event", event, to: &wire) }
        if let retry { Self.append("retry", String(Int(retry / .milliseconds(1))), to: &wire) }
        if let data { Self.append("data", data, to: &wire) }
        wire.append(Self.newline)
        return wire
    }

    /// How many bytes its values take, counted before they are put on the wire.
    package var size: Int {
        [id, event, data, comment].reduce(0) { $0 + ($1?.utf8.count ?? 0) }
    }

    /// Appends a `name: value` line for each line of `value`, split at any of the line ends the
    /// event-stream format knows; a comment's name is empty.
    private static func append(_ name: String, _ value: String, to wire: inout Data) {
        let bytes = Array(value.utf8)
        var start = 0
        var index = 0
        func line(to end: Int) {
            wire.append(contentsOf: name.utf8)
            wire.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            wire.append(contentsOf: bytes[start..<end])
            wire.append(newline)
        }
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == newline || byte == carriageReturn else {
                index += 1
                continue
            }
            line(to: index)
            index += byte == carriageReturn && index + 1 < bytes.count && bytes[index + 1] == newline ? 2 : 1
            start = index
        }
        line(to: bytes.count)
    }

    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
}

/// An event stream's events, and what follows them: the body of a response that sends them one
/// at a time, each after its delay on the engine's clock, in every serving alike.
package struct EventStream: Sendable, Hashable {
    /// What follows the last event.
    package typealias Ending = EventStreamStub.Ending
    /// How many times the events are sent.
    package typealias Repeats = EventStreamStub.Repeats

    /// The events, in order.
    package let events: [ServerEvent]
    /// What follows the last event.
    package let ending: Ending
    /// How many times the events are sent.
    package let repeats: Repeats
    /// One pass's events as they go on the wire.
    package let wire: [Data]

    /// One pass's events on the wire, as one body: what a response's ``StubResponse/body`` shows.
    package var onePass: Data { wire.reduce(into: Data()) { $0.append($1) } }

    /// The most events a stream may have: more is a stub gone wrong, or an attack.
    package static let maximumEventCount = 100_000
    /// The most bytes one event may take on the wire.
    package static let maximumEventSize = 1 << 20
    /// The most bytes one pass of the events may take on the wire.
    package static let maximumPassSize = 16 << 20
    /// The most passes a repeated stream may make, short of ``Repeats/forever``.
    package static let maximumRepeats = 1_000_000

    /// `events`, sent `repeats` times, then `ending`; refused when it would be unbounded, as a
    /// stream with more than ``maximumEventCount`` events, an event over ``maximumEventSize`` bytes,
    /// or one repeated forever without a single wait.
    package init(_ events: [ServerEvent], then ending: Ending = .close, repeats: Repeats = .times(1))
        throws(DecoyError)
    {
        guard !events.isEmpty else {
            throw DecoyError.invalidEventStream(reason: "an event stream has at least one event")
        }
        guard events.count <= Self.maximumEventCount else {
            throw DecoyError.invalidEventStream(
                reason:
                    "an event stream has at most \(Self.maximumEventCount) events, not \(events.count)")
        }
        var wire: [Data] = []
        wire.reserveCapacity(events.count)
        var passSize = 0
        for (index, event) in events.enumerated() {
            if let problem = event.delay.problem {
                throw DecoyError.invalidEventStream(reason: "event \(index + 1): \(problem)")
            }
            // Measured before it is encoded, so that a huge event costs no copy.
            guard event.size <= Self.maximumEventSize else {
                throw DecoyError.invalidEventStream(
                    reason:
                        "event \(index + 1) takes \(event.size) bytes; an event takes at most \(Self.maximumEventSize)")
            }
            let bytes = event.wire
            passSize += bytes.count
            guard passSize <= Self.maximumPassSize else {
                throw DecoyError.invalidEventStream(
                    reason:
                        "the events take more than \(Self.maximumPassSize) bytes; an event stream's take at most that")
            }
            wire.append(bytes)
        }
        switch repeats {
        case .times(let count) where !(1...Self.maximumRepeats).contains(count):
            throw DecoyError.invalidEventStream(
                reason: "an event stream repeats 1 to \(Self.maximumRepeats) times, not \(count)")
        case .forever where events.allSatisfy({ $0.delay == .none || $0.delay == .fixed(.zero) }):
            throw DecoyError.invalidEventStream(
                reason:
                    "an event stream repeated forever needs a delay before at least one event, or it floods the client")
        default:
            break
        }
        self.events = events
        self.ending = ending
        self.repeats = repeats
        self.wire = wire
    }
}

/// Answers with an event stream (`text/event-stream`): the head at once (after the stub's delay),
/// then each event after its own delay, on the engine's clock, in every serving alike.
///
/// ```swift
/// let stream = try EventStreamStub(events: [
///     ServerEvent(event: "delta", data: "Hel", delay: .fixed(.milliseconds(50))),
///     ServerEvent(event: "delta", data: "lo", delay: .fixed(.milliseconds(50))),
/// ])
/// try registry.register(stream, for: .post("/v1/chat/completions"))
/// ```
public struct EventStreamStub: Stub {
    /// What follows the last event (of the last pass, when the events repeat).
    public enum Ending: Sendable, Hashable {
        /// The body ends, and the response with it.
        case close
        /// Nothing more is sent, and the response is held open until the client goes away (or,
        /// in-process, until the task reading it is cancelled).
        case stayOpen
        /// The connection breaks the fault's way, as after the third event of a failing stream;
        /// in-process, the fault's error is thrown.
        case fault(Fault)
    }

    /// How many times the events are sent, one pass after the other.
    public enum Repeats: Sendable, Hashable {
        /// This many passes, at least one.
        case times(Int)
        /// Until the client goes away.
        case forever
    }

    /// The response it answers with, its body the stream.
    public let response: StubResponse

    /// A stream of `events`, sent `repeats` times, then `ending`, after `delay`; `Content-Type`
    /// is `text/event-stream` and `Cache-Control` `no-cache` unless `headerFields` say otherwise.
    public init(
        status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], events: [ServerEvent],
        then ending: Ending = .close, repeats: Repeats = .times(1), delay: Delay = .none
    ) throws(DecoyError) {
        self.init(
            status: status, headerFields: headerFields, stream: try EventStream(events, then: ending, repeats: repeats),
            delay: delay)
    }

    /// A stream already checked, as stub files read it.
    package init(status: HTTPResponse.Status, headerFields: HTTPFields, stream: EventStream, delay: Delay) {
        var response = StubResponse(
            status: status,
            headerFields: headerFields.defaulting(.contentType, to: "text/event-stream").defaulting(
                .cacheControl, to: "no-cache"),
            body: stream.onePass, delay: delay)
        response.events = stream
        self.response = response
    }

    /// Always the stream.
    public func resolve(for request: StubRequest) -> StubResolution {
        .response(response)
    }
}
