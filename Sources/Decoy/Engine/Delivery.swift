package import Foundation
package import HTTPTypes

/// What the engine hands a serving for one request: the whole of how the answer goes out, decided
/// and timed by the engine, so that ``StubTransport``, ``StubURLProtocol`` and the mock server
/// only translate it into their medium and decide nothing.
///
/// Every wait it holds (a fault's hold, the pause before each piece of a paced body) is slept on
/// ``clock``, the engine's: a test clock controls every serving alike.
package struct Delivery: Sendable {
    /// What goes out: a response, or a fault in its place.
    package enum Content: Sendable {
        /// The head, sent as soon as the delivery is handed over, then the body.
        case response(HTTPResponse, Body)
        /// No response: the fault breaks the exchange once `hold` has passed on the engine's clock.
        /// Only ``Fault/timeout`` holds, for the engine's ``StubEngine/timeoutHold`` (until the
        /// client gives up, unless a server limits it); every other fault breaks the exchange at
        /// once, with a `hold` of zero.
        case fault(Fault, hold: Duration)
    }

    /// The body that follows a head.
    package enum Body: Sendable {
        /// All of it at once; it may be empty.
        case whole(Data)
        /// The bytes in pieces, each sent after its wait from the one before (from the head, for the
        /// first). There is at least one piece, their ends rise strictly, and the last ends at the
        /// data's end: the pieces cover the bytes exactly once, in order.
        case paced(Data, [BodyPiece])
        /// None, as the answer to `HEAD`: `length` is the size of the body the same `GET` would
        /// get, which a server announces in `Content-Length`. Never paced.
        case withheld(length: Int)
        /// The stream's events, each after its delay (drawn from the engine's random source), then
        /// its ending: possibly without end.
        case events(EventStream)
        /// An upstream's event stream, each piece as it arrives (``ProxyStub``).
        case relayed(RelayedEvents)

        /// The size a server announces in `Content-Length`, known before the first byte: what it
        /// sends, or for `HEAD` what it withholds; `nil` for an event stream, which has no end in view.
        package var length: Int? {
            switch self {
            case .whole(let data), .paced(let data, _): data.count
            case .withheld(let length): length
            case .events, .relayed: nil
            }
        }
    }

    /// How it goes out, worked out from ``response`` when asked: a serving that keeps its
    /// encoding of the response asks only whether it is paced, and copying the head and body
    /// into a delivery it never reads would cost every request.
    package var content: Content {
        // A fault put into words (a proxy failure) goes out as its response, in every serving.
        if let fault = response.fault, !fault.isAnsweredOverHTTP {
            return .fault(fault, hold: fault == .timeout ? timeoutHold : .zero)
        }
        let body = response.body
        if isAnswerToHead { return .response(response.head, .withheld(length: body.count)) }
        guard !response.isSentAtOnce else { return .response(response.head, .whole(body)) }
        if let events = response.events { return .response(response.head, .events(events)) }
        if let relay = response.relay { return .response(response.head, .relayed(relay)) }
        return .response(response.head, .paced(body, response.throttle.pieces(forBodyOf: body.count)))
    }

    /// The response the stub answered with, as the journal recorded it; servings read it to log it
    /// and to keep their encoding of it in its ``StubResponse/cache``, which is shared by every
    /// delivery of the same response.
    package let response: StubResponse
    /// The route of the stub that answered; `nil` when nothing matched.
    package let route: Route?
    /// How long the engine waited before handing it over.
    package let delay: Duration
    /// The engine's clock, on which every wait of the delivery is slept.
    package let clock: any Clock<Duration>
    /// The engine's random source, from which an event stream's delays are drawn.
    private let random: RandomSource
    /// Where the journal keeps the events of an event stream as they go out.
    private let sentEvents: SentEvents?
    /// Whether the request was a `HEAD`, whose answer withholds the body.
    private let isAnswerToHead: Bool
    /// How long a ``Fault/timeout`` holds (``StubEngine/timeoutHold``).
    private let timeoutHold: Duration

    /// The hold of a ``Fault/timeout``, which answers nothing until the client gives up: a year,
    /// which in-process is as long as a test can wait; a server's engine holds it for less, its own
    /// limit (``StubEngine/timeoutHold``).
    package static let untilTheClientGivesUp = Duration.seconds(365 * 24 * 3600)

    /// How `response` goes out to `method`, after `delay`, timed on `clock`, its events' delays
    /// drawn from `random`, a timeout held for `timeoutHold`.
    init(
        _ response: StubResponse, to method: HTTPRequest.Method, route: Route?, delay: Duration,
        clock: any Clock<Duration>, random: RandomSource, timeoutHold: Duration, sentEvents: SentEvents? = nil
    ) {
        self.timeoutHold = timeoutHold
        self.response = response
        self.route = route
        self.delay = delay
        self.clock = clock
        self.random = random
        self.sentEvents = sentEvents
        isAnswerToHead = method == .head
    }

    /// Whether the content is the response's head and whole body at once, so that a serving
    /// holding its own encoding of the response can send that without reading ``content``; never
    /// for `HEAD`, whose body is withheld.
    package var isResponseAtOnce: Bool { response.isSentAtOnce && !isAnswerToHead }

    /// Hands the body over as it is paced, each piece waited for on the engine's clock; a whole
    /// body at once, an empty or withheld one not at all. For servings that hand bytes to their
    /// client themselves: an event stream's fault is thrown as the error `URLSession` reports
    /// for the server's version of it.
    package func send(_ body: Body, to receive: (Data) -> Void) async throws {
        do {
            for try await piece in pieces(of: body) { receive(piece) }
        } catch let broken as BrokenBody {
            throw broken.fault.inProcessError
        }
    }

    /// The body's bytes as they fall due on the engine's clock, for servings that pull them: each
    /// piece after its wait, a whole body as one piece, an empty or withheld one as none.
    package func pieces(of body: Body) -> BodyPieces {
        BodyPieces(body: body, clock: clock, random: random, sentEvents: sentEvents)
    }

    /// The head and body, for servings that realise a fault by throwing: a fault is held on the
    /// engine's clock, then thrown as the error `URLSession` reports for the server's version of it.
    package func headAndBody() async throws -> (HTTPResponse, Body) {
        switch content {
        case .response(let head, let body): (head, body)
        case .fault(let fault, let hold): try await fail(fault, after: hold)
        }
    }

    /// Holds `fault` for `hold` on the engine's clock, then throws the error `URLSession` reports
    /// for the server's version of it.
    package func fail(_ fault: Fault, after hold: Duration) async throws -> Never {
        if hold > .zero { try await clock.sleepOnTimer(for: hold) }
        throw fault.inProcessError
    }
}

/// A value ready now, or one to await: servings answer ready deliveries on the spot and free their
/// thread only for the others.
package enum Prepared<Value: Sendable>: Sendable {
    /// The value, decided without waiting.
    case ready(Value)
    /// Await this for the value; it throws only `CancellationError`.
    case pending(@Sendable () async throws -> Value)

    /// The value, awaited when it is pending; consumed, so that a ready value is moved out rather
    /// than copied field by field and the copy's fields released.
    package consuming func value() async throws -> Value {
        switch self {
        case .ready(let value): value
        case .pending(let wait): try await wait()
        }
    }
}

/// A body's pieces, each handed out once its wait has passed on the engine's clock
/// (``Delivery/pieces(of:)``). It throws ``BrokenBody`` where an event stream ends in a fault.
package struct BodyPieces: AsyncSequence, Sendable {
    package typealias Element = Data
    let body: Delivery.Body
    let clock: any Clock<Duration>
    let random: RandomSource
    let sentEvents: SentEvents?

    package func makeAsyncIterator() -> Iterator {
        Iterator(body: body, clock: clock, random: random, sentEvents: sentEvents)
    }

    /// Walks the pieces in order, sleeping before each.
    package struct Iterator: AsyncIteratorProtocol {
        let body: Delivery.Body
        let clock: any Clock<Duration>
        let random: RandomSource
        let sentEvents: SentEvents?
        /// The next piece's index (of an event stream, counted over every pass), and where in
        /// the body it starts.
        private var next = 0
        private var start = 0
        /// When the first piece was asked for, and how long after it the next piece is due: each
        /// wait is slept until its due time, so that the time spent sending never adds up into drift.
        private var origin: (any InstantProtocol<Duration>)?
        private var due = Duration.zero
        /// The reader of a relayed stream, made when its first piece is asked for.
        private var relay: RelayedEvents.Reader?

        init(body: Delivery.Body, clock: any Clock<Duration>, random: RandomSource, sentEvents: SentEvents?) {
            self.body = body
            self.clock = clock
            self.random = random
            self.sentEvents = sentEvents
        }

        package mutating func next() async throws -> Data? {
            switch body {
            case .whole(let data):
                guard next == 0, !data.isEmpty else { return nil }
                next = 1
                return data
            case .paced(let data, let pieces):
                guard next < pieces.count else { return nil }
                try await sleep(for: pieces[next].wait)
                let from = data.startIndex + start
                start = pieces[next].end
                next += 1
                return data[from..<data.startIndex + start]
            case .withheld:
                return nil
            case .events(let stream):
                return try await nextEvents(of: stream)
            case .relayed(let relayed):
                var reader = relay ?? relayed.reader()
                defer { relay = reader }
                return try await reader.next()
            }
        }

        /// The next event once due, with those due at the same moment after it (up to
        /// ``coalescedSize`` bytes), so that a burst goes out in one piece; then the ending.
        private mutating func nextEvents(of stream: EventStream) async throws -> Data? {
            let count = stream.events.count
            let total: Int? =
                switch stream.repeats {
                case .times(let passes): passes * count
                case .forever: nil
                }
            guard next < total ?? .max else {
                switch stream.ending {
                case .close: return nil
                case .stayOpen:
                    try await sleep(for: Delivery.untilTheClientGivesUp)
                    return nil
                case .fault(let fault): throw BrokenBody(fault: fault)
                }
            }
            try await sleep(for: stream.events[next % count].delay.sample(from: random))
            var piece = stream.wire[next % count]
            let first = next
            next += 1
            while next < total ?? .max, piece.count < Self.coalescedSize {
                let event = stream.events[next % count]
                guard event.delay == .none || event.delay == .fixed(.zero) else { break }
                piece.append(stream.wire[next % count])
                next += 1
            }
            sentEvents?.note(next - first, at: due)
            return piece
        }

        /// Sleeps until `wait` after the last piece's due time (the first piece's is when it was asked for).
        private mutating func sleep(for wait: Duration) async throws {
            let origin = origin ?? clock.now
            self.origin = origin
            due += wait
            try await clock.sleep(until: due, after: origin)
        }

        /// The most bytes of events due together that go out as one piece.
        private static let coalescedSize = 64 * 1024
    }
}

/// A body cut off by a fault after some of it was sent: the connection breaks the fault's way.
package struct BrokenBody: Error {
    /// How it breaks.
    package let fault: Fault
}

extension Clock<Duration> {
    /// Sleeps until `due` after `origin`, an instant of this clock's.
    fileprivate func sleep(until due: Duration, after origin: any InstantProtocol<Duration>) async throws {
        guard let origin = origin as? Instant else { return try await sleepOnTimer(for: due) }
        try await sleepOnTimer(until: origin.advanced(by: due))
    }
}
