import Decoy
import Foundation
import HTTPTypes

/// Where one exchange is between its raw request line and the end of its answer, as a value:
/// each event (a call of libmicrohttpd's, or the task that resumes a suspended connection) moves
/// it on and, where there is a choice, returns the action for the daemon to perform on the
/// connection. It knows nothing of libmicrohttpd, so every transition is tested without a socket.
///
/// An event that cannot happen in the state it comes in (libmicrohttpd never calls the handler
/// of a suspended connection, say) stops the server with the state and the event named, rather
/// than carry on from a state no one thought of. Each state's comment says which events it takes.
struct ExchangeStateMachine {
    /// Where the exchange is; the handler's calls and the suspensions alternate as drawn in
    /// docs/architecture.md.
    enum State {
        /// Only the request line is in. Takes ``handlerCalled()`` (to ``readingHead``).
        case awaitingHead
        /// The handler's first call is reading and checking the head, and says what it found
        /// before it returns: ``headAccepted()`` (to ``receiving``) or ``headRefused()`` (to
        /// ``responding``).
        case readingHead
        /// The head is accepted; pieces of the body, if any, go into ``body`` until it outgrows
        /// the limit (``bodyTooLarge``). ``handlerCalled()`` says it is whole (``answering``).
        case receiving
        /// The body went past the limit: what came is dropped, what comes is ignored, and
        /// ``handlerCalled()`` answers `413` (``responding``).
        case bodyTooLarge
        /// The handler holds the whole request and works out its answer on this very call:
        /// ``answered(with:)`` (to ``responding``, ``closing`` or, for a held fault,
        /// ``awaitingAnswer``) or ``answerPending()`` (``awaitingAnswer``).
        case answering
        /// The connection is suspended from the handler while a task works out the answer, or
        /// holds a fault; libmicrohttpd calls nothing of it. Only that task moves it on,
        /// ``resumed(with:)`` an answer (``answerReady(_:)``) or to close (``closing``), or the
        /// server's stopping, ``serverStopped()`` (``closing``).
        case awaitingAnswer
        /// Resumed with the answer, which the handler's next call takes (``answering``).
        case answerReady(Answer)
        /// A response is queued: libmicrohttpd calls the handler no more, and calls the content
        /// reader of a streamed body, which may wait for its next piece (``awaitingPiece``).
        case responding
        /// The connection is suspended from the content reader until the next piece of the body
        /// comes. Only the task awaiting it moves it on, ``resumed(with:)`` for the piece, or the
        /// body's end, (``pieceDue``) or to close (``closing``), or the server's stopping (``closing``).
        case awaitingPiece
        /// Resumed: the piece waited for has come (or the body's end), and the reader's next call
        /// releases it (``responding``).
        case pieceDue
        /// To be closed without an answer, or with the rest of one cut off, on the next call of
        /// the handler or the reader.
        case closing
        /// libmicrohttpd is done with the request, answered or not, its client there or gone. Final.
        case completed
    }

    /// The answer a task worked out while the connection was suspended.
    enum Answer: Sendable {
        /// The engine's, for a stub or for no match.
        case delivery(Delivery)
        /// The server's own, as the admin API's.
        case reply(StubResponse)
        /// The server's own, its head and then a body sent as its producer hands it over
        /// (``StreamedBody``), for as long as the producer goes on.
        case stream(HTTPResponse, StreamedBody)
    }

    /// How the task that awaited something resumes a suspended connection.
    enum Resumption: Sendable {
        /// With the answer it worked out.
        case answer(Answer)
        /// With the next piece of a streamed body in hand, or the end of an open-ended one.
        case pieceDue
        /// To close it without an answer, or with the rest of one cut off: a fault's hold is over,
        /// the wait failed, or a sized body's producer ended short of its length.
        case close
    }

    /// What the handler does next on the connection.
    enum Action {
        /// Read and check the request head, then report ``headAccepted()`` or ``headRefused()``.
        case readHead
        /// Work out the answer to the whole request, then report ``answered(with:)`` or
        /// ``answerPending()``.
        case answer
        /// Answer `413`: the body outgrew the server's limit.
        case refuseBody
        /// Answer with the server's own reply.
        case reply(StubResponse)
        /// Queue the delivery's response, its head and whole body at once.
        case respond(Delivery)
        /// Queue `head`, and `body` after it as its pieces come (none, for `HEAD`, though its
        /// length is announced): the delivery's, or the server's own when `delivery` is `nil`.
        case stream(HTTPResponse, StreamedBody, of: Delivery?)
        /// Queue the response of the delivery's fault, a failure a server can still put into words.
        case respondWithFault(Delivery)
        /// Break the connection the way the delivery's `fault` says, at once and without an answer.
        case breakConnection(Delivery, Fault)
        /// Suspend the connection for the delivery's `hold`, then close it
        /// (``resumed(with:)`` ``Resumption/close``).
        case hold(Delivery, Duration)
        /// Close the connection without an answer.
        case close
    }

    /// What the content reader of a streamed body does next.
    enum ReaderAction: Equatable {
        /// Hand out what is released and not yet sent; with nothing left to send, suspend until
        /// the next piece comes (``pieceAwaited()``).
        case sendReleased
        /// Release the piece waited for (or the body's end), then hand it out.
        case releasePiece
        /// End the body with an error, which closes the connection.
        case close
    }

    /// Moved only by the events below.
    private(set) var state = State.awaitingHead
    /// The request's body as it came in; dropped when it outgrows the limit.
    private(set) var body = Data()

    // MARK: Events of the handler

    /// libmicrohttpd called the connection's handler without a piece of the body: for the head
    /// first, then once the body is whole, then after each resumption.
    mutating func handlerCalled() -> Action {
        switch state {
        case .awaitingHead:
            state = .readingHead
            return .readHead
        case .receiving:
            state = .answering
            return .answer
        case .bodyTooLarge:
            state = .responding
            return .refuseBody
        case .answerReady(.delivery(let delivery)):
            state = .answering
            return answered(with: delivery)
        case .answerReady(.reply(let reply)):
            state = .responding
            return .reply(reply)
        case .answerReady(.stream(let head, let body)):
            state = .responding
            return .stream(head, body, of: nil)
        case .closing:
            return .close
        case .readingHead, .answering, .awaitingAnswer, .responding, .awaitingPiece, .pieceDue, .completed:
            impossible("handlerCalled")
        }
    }

    /// The head is sound: the body, if any, comes next.
    mutating func headAccepted() {
        guard case .readingHead = state else { impossible("headAccepted") }
        state = .receiving
    }

    /// The head is answered at once (it is malformed, announces too large a body, or comes over
    /// the connection limit), so libmicrohttpd closes the connection after the answer.
    mutating func headRefused() {
        guard case .readingHead = state else { impossible("headRefused") }
        state = .responding
    }

    /// libmicrohttpd offered a piece of the body; past `limit` the whole body is dropped. A piece
    /// after an early answer, which libmicrohttpd may still read, is ignored.
    mutating func bodyPieceArrived(_ piece: UnsafeRawBufferPointer, limit: Int) {
        switch state {
        case .receiving:
            guard body.count + piece.count <= limit else {
                state = .bodyTooLarge
                body = Data()
                return
            }
            body.append(contentsOf: piece)
        case .bodyTooLarge, .responding:
            break
        case .awaitingHead, .readingHead, .answering, .awaitingAnswer, .answerReady, .awaitingPiece, .pieceDue,
            .closing, .completed:
            impossible("bodyPieceArrived")
        }
    }

    /// The engine's delivery for the request, ready on the handler's call: how it goes out.
    mutating func answered(with delivery: consuming Delivery) -> Action {
        guard case .answering = state else { impossible("answered") }
        // Most answers at once, told without reading the content, which copies the head and body
        // out of the response.
        if delivery.isResponseAtOnce {
            state = .responding
            return .respond(delivery)
        }
        switch delivery.content {
        case .response(let head, let body):
            state = .responding
            return .stream(head, StreamedBody(delivery.pieces(of: body), length: body.length), of: delivery)
        case .fault(let fault, _) where fault.isAnsweredOverHTTP:
            state = .responding
            return .respondWithFault(delivery)
        case .fault(let fault, let hold) where hold <= .zero:
            state = .closing
            return .breakConnection(delivery, fault)
        case .fault(_, let hold):
            state = .awaitingAnswer
            return .hold(delivery, hold)
        }
    }

    /// The answer is to be awaited by a task, with the connection suspended.
    mutating func answerPending() {
        guard case .answering = state else { impossible("answerPending") }
        state = .awaitingAnswer
    }

    // MARK: Events of the content reader

    /// libmicrohttpd called the content reader of the streamed body for more.
    mutating func readerCalled() -> ReaderAction {
        switch state {
        case .responding:
            return .sendReleased
        case .pieceDue:
            state = .responding
            return .releasePiece
        case .closing:
            return .close
        case .awaitingHead, .readingHead, .receiving, .bodyTooLarge, .answering, .awaitingAnswer, .answerReady,
            .awaitingPiece, .completed:
            impossible("readerCalled")
        }
    }

    /// The reader has handed out every released byte and waits, with the connection suspended,
    /// for the next piece.
    mutating func pieceAwaited() {
        guard case .responding = state else { impossible("pieceAwaited") }
        state = .awaitingPiece
    }

    // MARK: Events of the tasks and of the server

    /// The task that awaited something resumes the suspended connection.
    mutating func resumed(with resumption: Resumption) {
        switch (state, resumption) {
        case (.awaitingAnswer, .answer(let answer)):
            state = .answerReady(answer)
        case (.awaitingPiece, .pieceDue):
            state = .pieceDue
        case (.awaitingAnswer, .close), (.awaitingPiece, .close):
            state = .closing
        default:
            impossible("resumed(with: \(resumption))")
        }
    }

    /// The server is stopping: the suspended connection is resumed to be closed.
    mutating func serverStopped() {
        switch state {
        case .awaitingAnswer, .awaitingPiece:
            state = .closing
        case .awaitingHead, .readingHead, .receiving, .bodyTooLarge, .answering, .answerReady, .responding, .pieceDue,
            .closing, .completed:
            impossible("serverStopped")
        }
    }

    /// libmicrohttpd is done with the request: answered, broken, or its client gone. Never while
    /// suspended, as libmicrohttpd looks at a suspended connection only once it is resumed, nor
    /// within a call of the handler.
    mutating func completed() {
        switch state {
        case .awaitingHead, .receiving, .bodyTooLarge, .answerReady, .responding, .pieceDue, .closing:
            state = .completed
        case .readingHead, .answering, .awaitingAnswer, .awaitingPiece, .completed:
            impossible("completed")
        }
    }

    private func impossible(_ event: String, line: UInt = #line) -> Never {
        preconditionFailure("An exchange cannot take \(event) in the state \(state).", line: line)
    }
}
