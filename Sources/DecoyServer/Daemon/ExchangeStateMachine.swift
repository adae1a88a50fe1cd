import Decoy
import Foundation
import HTTPTypes

/// Where one exchange is between its raw request line and the end of its answer, and every
/// decision about it: each event (a call of libmicrohttpd's, the task that resumes a suspended
/// connection, the server's stopping) moves it on and returns the action the daemon performs on
/// the connection. The daemon tells facts and performs actions; the machine knows nothing of
/// libmicrohttpd, so every exchange is tested as a sequence of actions without a socket.
///
/// Who touches it: libmicrohttpd calls a connection's handler and content reader on one thread at
/// a time, and only while the connection is not suspended; a suspended connection's machine is
/// moved only under ``SuspendedExchanges``' lock, by the task that resumes it or by the server's
/// stopping, before `MHD_resume_connection`, which libmicrohttpd orders before its next call.
///
/// An event that cannot happen in the state it comes in (libmicrohttpd never calls the handler
/// of a suspended connection, say) stops the server with the state and the event named, rather
/// than carry on from a state no one thought of. Each state's comment says which events it takes.
struct ExchangeStateMachine {
    /// Where the exchange is, as drawn in docs/architecture.md.
    enum State: Equatable {
        /// Only the request line is in. Takes ``handlerCalled()`` (to ``readingHead``).
        case awaitingHead
        /// The handler's first call reads the head and tells it, `headRead(method:…)`
        /// (to ``receiving`` or, refused, ``responding``).
        case readingHead
        /// The head is accepted; pieces of the body, if any, go into ``body`` until it outgrows
        /// the limit (``bodyTooLarge``). ``handlerCalled()`` says it is whole (to ``preparing``,
        /// or ``awaitingTask`` for the admin API).
        case receiving
        /// The body went past the limit: what came is dropped, what comes is ignored, and
        /// ``handlerCalled()`` answers `413` (``responding``).
        case bodyTooLarge
        /// The engine works out the delivery on the handler's call: ``prepared(_:)``.
        case preparing
        /// The connection is suspended while a task awaits the answer, or holds a fault;
        /// libmicrohttpd calls nothing of it. ``resumed(with:)`` (to ``deliveryReady(_:)``,
        /// ``replyReady(_:)`` or ``closing(cutOffBy:)``), or ``serverStopped()``.
        case awaitingTask
        /// Resumed with the engine's delivery, which the handler's next call sends.
        case deliveryReady(Delivered)
        /// Resumed with the server's own reply, which the handler's next call sends.
        case replyReady(Reply)
        /// A whole response is queued: libmicrohttpd calls nothing more until it completes.
        case responding
        /// A streamed response is queued and its content reader hands out the piece in hand:
        /// ``readerCalled(capacity:)``.
        case streaming(Stream)
        /// Suspended from the content reader until the producer's next piece comes:
        /// ``resumed(with:)`` (to ``pieceDue(_:_:)`` or ``closing(cutOffBy:)``), or ``serverStopped()``.
        case awaitingPiece(Stream)
        /// Resumed with the next piece, or `nil` for the body's end, which the reader's next call
        /// releases (``streaming(_:)`` or ``streamEnded``).
        case pieceDue(Stream, Data?)
        /// The whole streamed body is out; the reader ends it.
        case streamEnded
        /// To be closed without an answer, or with the rest of one cut off (by `fault`, when a
        /// body's producer broke with one), on the next call of the handler or the reader.
        case closing(cutOffBy: Fault?)
        /// The `101` of a WebSocket handshake is queued; libmicrohttpd calls the upgrade handler
        /// once it is out: ``upgraded()`` (to ``upgraded``), or ``completed()`` when it is not.
        case upgrading
        /// The connection is a WebSocket, its socket read and written by the server's channels
        /// (``WebSocketChannels``) until they close it: takes only ``completed()``.
        case upgraded
        /// libmicrohttpd is done with the request, answered or not, its client there or gone. Final.
        case completed
    }

    /// How the task that awaited something resumes a suspended connection.
    enum Resumption: Sendable, Equatable {
        /// With the engine's delivery.
        case delivery(Delivered)
        /// With the server's own reply.
        case reply(Reply)
        /// With the next piece of a streamed body, or `nil` when its producer ended.
        case piece(Data?)
        /// To close the connection: a fault's hold is over, a wait failed or was cancelled.
        case close
        /// To cut a streamed body off the way its producer's fault says (``BrokenBody``).
        case broken(Fault)
    }

    /// What the daemon does next on the connection.
    enum Action: Equatable {
        /// Nothing more on this call: let libmicrohttpd go on (the handler returns `MHD_YES`).
        case wait
        /// Read the request head and tell it: `headRead(method:…)`.
        case readHead
        /// Answer the head at once; libmicrohttpd closes the connection after.
        case refuseHead(HeadRefusal)
        /// Answer `413`: the body outgrew the server's limit.
        case refuseBody
        /// Suspend the connection while a task asks the admin API, off the server's threads, then
        /// resume it with ``Resumption/reply(_:)``.
        case askAdminAPI
        /// Ask the engine, and tell what it prepared: ``prepared(_:)``.
        case askEngine
        /// Suspend the connection until the engine's wait gives the delivery
        /// (``Resumption/delivery(_:)``, or ``Resumption/close`` when it fails).
        case awaitDelivery(AwaitedDelivery)
        /// Queue the server's own reply, whole.
        case reply(Replied)
        /// Queue the delivery's response, its head and whole body at once.
        case respond(Delivered)
        /// Queue `head` with a content reader that reads out the body, `length` bytes announced
        /// (`nil`: chunked); the delivery's, or the server's own reply when `delivery` is `nil`.
        case stream(HTTPResponse, length: Int?, of: Delivered?)
        /// Break the connection the way the fault says, at once and without an answer.
        case breakConnection(Delivered, Fault)
        /// Suspend the connection for the delivery's hold on the engine's clock, then resume it
        /// with ``Resumption/close``.
        case hold(Delivered, Duration)
        /// Close the connection without an answer (the handler returns `MHD_NO`).
        case close
        /// Resume the suspended connection; `closing` when it resumes to be closed, which
        /// libmicrohttpd should see at once.
        case resume(closing: Bool)
        /// The request is done: drop up to `bytes` of an unread body from the socket before it is
        /// closed, so that the close is no reset (``LingeringClose``).
        case drainOnClose(bytes: Int)
        /// Queue the `101` that accepts a WebSocket handshake, with `Sec-WebSocket-Accept: accept`, and
        /// `Sec-WebSocket-Protocol: subprotocol` when one was chosen.
        case upgrade(accept: String, subprotocol: String? = nil)
        /// Hand the upgraded socket to the server's WebSocket channels.
        case openChannel
    }

    /// What the content reader of a streamed body does next.
    enum ReaderAction: Equatable {
        /// Hand out these bytes.
        case send(Data)
        /// Suspend the connection while a task awaits the producer's next piece, then resume it
        /// with ``Resumption/piece(_:)`` (or ``Resumption/broken(_:)``, ``Resumption/close``).
        case awaitPiece(StreamedBody)
        /// End the body: all of it is out.
        case end
        /// End the body with an error, which closes the connection, having cut it off the way
        /// `fault` says, if any.
        case close(cutOffBy: Fault?)
    }

    /// Moved only by the events below.
    private(set) var state = State.awaitingHead
    /// The request's body as it came in; dropped when it outgrows the limit.
    private(set) var body = Data()
    /// The largest body the server accepts.
    private let bodyLimit: Int
    /// Whether the admin API answers the request rather than the engine.
    private var isForAdminAPI = false
    /// The WebSocket handshake the request asks for, if any (``asksToUpgrade(_:)``).
    private var handshake: WebSocketHandshake?
    /// How many bytes of a body left unread to drop before the connection is closed; `nil` when
    /// nothing is left unread.
    private var drainsOnClose: Int?

    init(bodyLimit: Int) {
        self.bodyLimit = bodyLimit
    }

    /// The bytes of an unread body dropped before closing its connection at least, however small
    /// the body limit; up to the limit itself when it is larger.
    static let minimumDrain = 1024 * 1024

    // MARK: Events of the handler

    /// libmicrohttpd called the connection's handler without a piece of the body: for the head
    /// first, then once the body is whole, then after a resumption with an answer or to close.
    mutating func handlerCalled() -> Action {
        switch state {
        case .awaitingHead:
            state = .readingHead
            return .readHead
        case .receiving where isForAdminAPI:
            state = .awaitingTask
            return .askAdminAPI
        case .receiving:
            switch handshake {
            case nil:
                state = .preparing
                return .askEngine
            case .accept(let accept, let subprotocol)?:
                state = .upgrading
                return .upgrade(accept: accept, subprotocol: subprotocol)
            case .refuse(let status, let reason)?:
                state = .responding
                return .refuseHead(.malformed(status, reason: reason))
            }
        case .bodyTooLarge:
            state = .responding
            return .refuseBody
        case .deliveryReady(let delivered):
            state = .preparing
            return delivery(delivered.delivery)
        case .replyReady(.whole(let reply)):
            state = .responding
            return .reply(Replied(reply))
        case .replyReady(.stream(let head, let body)):
            state = .streaming(Stream(body: body))
            return .stream(head, length: body.length, of: nil)
        case .closing:
            return .close
        case .readingHead, .preparing, .awaitingTask, .responding, .streaming, .awaitingPiece, .pieceDue,
            .streamEnded, .upgrading, .upgraded, .completed:
            impossible("handlerCalled")
        }
    }

    /// The head as the daemon read it. A head that breaks RFC 9112 (``HeadCheck``), ends at a
    /// field line of empty name, announces too large a body or comes over the connection limit is
    /// refused, answered on this very call so that libmicrohttpd reads nothing more of the
    /// connection as a request; a sound one waits for its body. The costlier facts are asked for
    /// only when the checks before them pass.
    mutating func headRead(
        method: HTTPRequest.Method?, fields: [(name: String, value: String)], isForAdminAPI: Bool,
        version: @autoclosure () -> String, endsAtAFieldLine: @autoclosure () -> Bool,
        contentLength: @autoclosure () -> Int?, isOverConnectionLimit: @autoclosure () -> Bool
    ) -> Action {
        guard case .readingHead = state else { impossible("headRead") }
        let refusal: HeadRefusal
        if let (status, reason) = HeadCheck.problem(method: method, version: version(), fields: fields) {
            refusal = .malformed(status, reason: reason)
        } else if endsAtAFieldLine() {
            refusal = .emptyFieldName
        } else if let length = contentLength(), length > bodyLimit {
            // Answered before the body is read, which the client may still be sending.
            drainsOnClose = min(length, max(bodyLimit, Self.minimumDrain))
            refusal = .bodyTooLarge
        } else if isOverConnectionLimit() {
            refusal = .overConnectionLimit
        } else {
            self.isForAdminAPI = isForAdminAPI
            state = .receiving
            return .wait
        }
        state = .responding
        return .refuseHead(refusal)
    }

    /// libmicrohttpd offered a piece of the body; past the limit the whole body is dropped. A
    /// piece after an early answer, which libmicrohttpd may still read, is ignored.
    mutating func bodyPieceArrived(_ piece: UnsafeRawBufferPointer) -> Action {
        switch state {
        case .receiving:
            guard body.count + piece.count <= bodyLimit else {
                state = .bodyTooLarge
                body = Data()
                return .wait
            }
            body.append(contentsOf: piece)
        case .bodyTooLarge, .responding:
            break
        case .awaitingHead, .readingHead, .preparing, .awaitingTask, .deliveryReady, .replyReady, .streaming,
            .awaitingPiece, .pieceDue, .streamEnded, .closing, .upgrading, .upgraded, .completed:
            impossible("bodyPieceArrived")
        }
        return .wait
    }

    /// What the engine prepared on the handler's call: a delivery now, or a wait for one.
    mutating func prepared(_ prepared: consuming Prepared<Delivery>) -> Action {
        guard case .preparing = state else { impossible("prepared") }
        switch consume prepared {
        case .ready(let delivery):
            return self.delivery(delivery)
        case .pending(let wait):
            state = .awaitingTask
            return .awaitDelivery(AwaitedDelivery(wait: wait))
        }
    }

    /// How the engine's delivery goes out, in ``State/preparing``.
    private mutating func delivery(_ delivery: consuming Delivery) -> Action {
        // Most answers at once, told without reading the content, which copies the head and body
        // out of the response.
        if delivery.isResponseAtOnce {
            state = .responding
            return .respond(Delivered(delivery))
        }
        switch delivery.content {
        case .response(let head, let body):
            state = .streaming(Stream(body: StreamedBody(delivery.pieces(of: body), length: body.length)))
            return .stream(head, length: body.length, of: Delivered(delivery))
        case .fault(let fault, let hold) where hold <= .zero:
            state = .closing(cutOffBy: nil)
            return .breakConnection(Delivered(delivery), fault)
        case .fault(_, let hold):
            state = .awaitingTask
            return .hold(Delivered(delivery), hold)
        }
    }

    // MARK: Events of the content reader

    /// libmicrohttpd called the content reader of the streamed body for at most `capacity` bytes.
    mutating func readerCalled(capacity: Int) -> ReaderAction {
        switch state {
        case .streaming(var stream):
            guard stream.sent < stream.piece.count else {
                state = .awaitingPiece(stream)
                return .awaitPiece(stream.body)
            }
            let from = stream.piece.startIndex + stream.sent
            let count = min(capacity, stream.piece.count - stream.sent)
            stream.sent += count
            state = .streaming(stream)
            return .send(stream.piece[from..<from + count])
        case .pieceDue(var stream, let piece?):
            stream.piece = piece
            stream.sent = 0
            state = .streaming(stream)
            return readerCalled(capacity: capacity)
        case .pieceDue(_, nil), .streamEnded:
            state = .streamEnded
            return .end
        case .closing(let fault):
            return .close(cutOffBy: fault)
        case .awaitingHead, .readingHead, .receiving, .bodyTooLarge, .preparing, .awaitingTask, .deliveryReady,
            .replyReady, .responding, .awaitingPiece, .upgrading, .upgraded, .completed:
            impossible("readerCalled")
        }
    }

    // MARK: Events of the tasks and of the server

    /// The task that awaited something resumes the suspended connection.
    mutating func resumed(with resumption: Resumption) -> Action {
        switch (state, resumption) {
        case (.awaitingTask, .delivery(let delivered)):
            state = .deliveryReady(delivered)
        case (.awaitingTask, .reply(let reply)):
            state = .replyReady(reply)
        case (.awaitingPiece(let stream), .piece(let piece)):
            // A sized body's reader is called no more once it is all out, so one that waits and
            // meets the end has a producer that fell short of the announced length: it is cut off.
            state = piece == nil && stream.body.length != nil ? .closing(cutOffBy: nil) : .pieceDue(stream, piece)
        case (.awaitingPiece, .broken(let fault)):
            state = .closing(cutOffBy: fault)
        case (.awaitingTask, .close), (.awaitingPiece, .close):
            state = .closing(cutOffBy: nil)
        default:
            impossible("resumed(with: \(resumption))")
        }
        return .resume(closing: state.isClosing)
    }

    /// The server is stopping: the suspended connection is resumed to be closed.
    mutating func serverStopped() -> Action {
        switch state {
        case .awaitingTask, .awaitingPiece:
            state = .closing(cutOffBy: nil)
            return .resume(closing: true)
        case .awaitingHead, .readingHead, .receiving, .bodyTooLarge, .preparing, .deliveryReady, .replyReady,
            .responding, .streaming, .pieceDue, .streamEnded, .closing, .upgrading, .upgraded, .completed:
            impossible("serverStopped")
        }
    }

    /// libmicrohttpd is done with the request: answered, broken, or its client gone. Never while
    /// suspended, as libmicrohttpd looks at a suspended connection only once it is resumed, nor
    /// within a call of the handler.
    mutating func completed() -> Action {
        switch state {
        case .awaitingHead, .receiving, .bodyTooLarge, .deliveryReady, .replyReady, .responding, .streaming,
            .pieceDue, .streamEnded, .closing, .upgrading, .upgraded:
            state = .completed
            return drainsOnClose.map { .drainOnClose(bytes: $0) } ?? .wait
        case .readingHead, .preparing, .awaitingTask, .awaitingPiece, .completed:
            impossible("completed")
        }
    }

    // MARK: Events of a WebSocket handshake

    /// The accepted head asks for a WebSocket (``WebSocketHandshake``): the handler's call once the
    /// request is whole answers the handshake rather than asking the engine.
    mutating func asksToUpgrade(_ handshake: WebSocketHandshake) -> Action {
        guard case .receiving = state, !isForAdminAPI else { impossible("asksToUpgrade") }
        self.handshake = handshake
        return .wait
    }

    /// libmicrohttpd sent the `101` and hands over the socket.
    mutating func upgraded() -> Action {
        guard case .upgrading = state else { impossible("upgraded") }
        state = .upgraded
        return .openChannel
    }

    private func impossible(_ event: String, line: UInt = #line) -> Never {
        preconditionFailure("An exchange cannot take \(event) in the state \(state).", line: line)
    }
}

extension ExchangeStateMachine.State {
    fileprivate var isClosing: Bool {
        if case .closing = self { true } else { false }
    }
}
