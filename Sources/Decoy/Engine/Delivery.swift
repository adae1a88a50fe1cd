import Foundation
import HTTPTypes

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
        /// Only ``Fault/timeout`` holds, for ``Delivery/untilTheClientGivesUp``; every other fault
        /// breaks the exchange at once, with a `hold` of zero.
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

        /// The bytes the client receives, once all have arrived.
        package var data: Data {
            switch self {
            case .whole(let data), .paced(let data, _): data
            case .withheld: Data()
            }
        }
    }

    /// How it goes out, worked out from ``response`` when asked: a serving that keeps its
    /// encoding of the response asks only whether it is paced, and copying the head and body
    /// into a delivery it never reads would cost every request.
    package var content: Content {
        if let fault = response.fault {
            return .fault(fault, hold: fault == .timeout ? Self.untilTheClientGivesUp : .zero)
        }
        let body = response.body
        if isAnswerToHead { return .response(response.head, .withheld(length: body.count)) }
        guard !response.isSentAtOnce else { return .response(response.head, .whole(body)) }
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
    /// Whether the request was a `HEAD`, whose answer withholds the body.
    private let isAnswerToHead: Bool

    /// The hold of a ``Fault/timeout``, which answers nothing until the client gives up: a year,
    /// which in-process is as long as a test can wait; a server closes the connection sooner, after
    /// its own limit.
    package static let untilTheClientGivesUp = Duration.seconds(365 * 24 * 3600)

    /// How `response` goes out to `method`, after `delay`, timed on `clock`.
    init(
        _ response: StubResponse, to method: HTTPRequest.Method, route: Route?, delay: Duration,
        clock: any Clock<Duration>
    ) {
        self.response = response
        self.route = route
        self.delay = delay
        self.clock = clock
        isAnswerToHead = method == .head
    }

    /// Whether the content is the response at once, its head and whole body (or only its head,
    /// for `HEAD`), so that a serving holding its own encoding of the response can send that
    /// without reading ``content``.
    package var isResponseAtOnce: Bool { response.isSentAtOnce || (isAnswerToHead && response.fault == nil) }

    /// Hands the body over as it is paced, each piece waited for on the engine's clock; a whole
    /// body at once, an empty or withheld one not at all. For servings that hand bytes to their
    /// client themselves.
    package func send(_ body: Body, to receive: (Data) -> Void) async throws {
        for try await piece in pieces(of: body) { receive(piece) }
    }

    /// The body's bytes as they fall due on the engine's clock, for servings that pull them: each
    /// piece after its wait, a whole body as one piece, an empty or withheld one as none.
    package func pieces(of body: Body) -> BodyPieces {
        BodyPieces(body: body, clock: clock)
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
        if hold > .zero { try await clock.sleep(for: hold) }
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
/// (``Delivery/pieces(of:)``).
package struct BodyPieces: AsyncSequence, Sendable {
    package typealias Element = Data
    let body: Delivery.Body
    let clock: any Clock<Duration>

    package func makeAsyncIterator() -> Iterator { Iterator(body: body, clock: clock) }

    /// Walks the pieces in order, sleeping before each.
    package struct Iterator: AsyncIteratorProtocol {
        let body: Delivery.Body
        let clock: any Clock<Duration>
        /// The next piece's index, and where in the body it starts.
        private var next = 0
        private var start = 0

        init(body: Delivery.Body, clock: any Clock<Duration>) {
            self.body = body
            self.clock = clock
        }

        package mutating func next() async throws -> Data? {
            switch body {
            case .whole(let data):
                guard next == 0, !data.isEmpty else { return nil }
                next = 1
                return data
            case .paced(let data, let pieces):
                guard next < pieces.count else { return nil }
                try await clock.sleep(for: pieces[next].wait)
                let from = data.startIndex + start
                start = pieces[next].end
                next += 1
                return data[from..<data.startIndex + start]
            case .withheld:
                return nil
            }
        }
    }
}
