import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// Every transition of the server's exchange, driven event by event with no socket.
///
/// An event a state does not take stops the process with both named (`preconditionFailure`),
/// which is not tested here: in an exit test, the child that runs the test binary again stalled
/// the whole parallel run for some forty seconds on a two-core machine, and timing tests all over
/// failed. Each state's comment in ``ExchangeStateMachine`` and the table in docs/architecture.md
/// say which events it takes; every other pair is impossible.
@Suite("The exchange's state machine")
struct ExchangeStateMachineTests {
    typealias Machine = ExchangeStateMachine

    // MARK: The request

    @Test func theHeadIsReadOnTheFirstCallAndTheBodyGathersUntilTheCallWithoutAPiece() {
        var machine = Machine()
        #expect(name(machine.handlerCalled()) == "readHead")
        #expect(name(machine.state) == "readingHead")
        machine.headAccepted()
        #expect(name(machine.state) == "receiving")
        machine.receive("hello, ", limit: 12)
        machine.receive("world", limit: 12)
        #expect(name(machine.state) == "receiving")
        #expect(name(machine.handlerCalled()) == "answer")
        #expect(name(machine.state) == "answering")
        #expect(machine.body == Data("hello, world".utf8))
    }

    @Test func aRefusedHeadIsAnsweredAndTheRestOfItsBodyIgnored() {
        var machine = Machine()
        _ = machine.handlerCalled()
        machine.headRefused()
        #expect(name(machine.state) == "responding")
        machine.receive("late", limit: 100)
        #expect(name(machine.state) == "responding")
        #expect(machine.body.isEmpty)
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    @Test func aBodyPastTheLimitIsDroppedIgnoredAndRefused() {
        var machine = Self.receiving()
        machine.receive("12345", limit: 8)
        machine.receive("678", limit: 8)
        #expect(name(machine.state) == "receiving", "exactly the limit is taken")
        machine.receive("9", limit: 8)
        #expect(name(machine.state) == "bodyTooLarge")
        #expect(machine.body.isEmpty)
        machine.receive("more", limit: 8)
        #expect(name(machine.state) == "bodyTooLarge")
        #expect(machine.body.isEmpty)
        #expect(name(machine.handlerCalled()) == "refuseBody")
        #expect(name(machine.state) == "responding")
    }

    // MARK: The engine's answer

    @Test func aResponseAtOnceIsRespondedWith() throws {
        var machine = Self.answering()
        let action = machine.answered(with: try Self.delivery(StubResponse(text: "hi")))
        #expect(name(action) == "respond")
        #expect(name(machine.state) == "responding")
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    /// The engine withholds a `HEAD`'s body and tells its length; the server announces that length
    /// and sends no piece, whatever the body's pace.
    @Test(arguments: [
        StubResponse(text: "slow body").throttled(.bytesPerSecond(1)), StubResponse(text: "fast body"),
    ])
    func aHeadRequestGetsTheHeadAndTheLengthOfTheBodyWithheld(_ response: StubResponse) throws {
        var machine = Self.answering()
        guard case .stream(_, let body, of: .some) = machine.answered(with: try Self.delivery(response, method: .head))
        else {
            Issue.record("not streamed")
            return
        }
        #expect(body.length == 9)
        #expect(name(machine.state) == "responding")
    }

    @Test func aPacedBodyIsStreamedPieceByPiece() throws {
        var machine = Self.answering()
        let paced = StubResponse(text: "0123456789").throttled(.chunks(count: 2, over: .milliseconds(100)))
        guard case .stream(let head, let body, of: .some) = machine.answered(with: try Self.delivery(paced)) else {
            Issue.record("not streamed")
            return
        }
        #expect(head.status == .ok)
        #expect(body.length == 10, "a paced body's length is announced")
        #expect(name(machine.state) == "responding")
        for _ in 0..<2 {
            #expect(machine.readerCalled() == .sendReleased)
            machine.pieceAwaited()
            #expect(name(machine.state) == "awaitingPiece")
            machine.resumed(with: .pieceDue)
            #expect(name(machine.state) == "pieceDue")
            #expect(machine.readerCalled() == .releasePiece)
            #expect(name(machine.state) == "responding")
        }
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    @Test func aStreamedReplyOfTheServersOwnIsReadOutLikeAPacedBody() {
        var machine = Self.answering()
        machine.answerPending()
        let feed = AsyncStream<Data> { $0.finish() }
        machine.resumed(with: .answer(.stream(HTTPResponse(status: .ok), StreamedBody(feed))))
        guard case .stream(let head, let body, of: nil) = machine.handlerCalled() else {
            Issue.record("not streamed")
            return
        }
        #expect(head.status == .ok)
        #expect(body.length == nil, "open-ended, so chunked")
        #expect(name(machine.state) == "responding")
        #expect(machine.readerCalled() == .sendReleased)
        machine.pieceAwaited()
        machine.resumed(with: .pieceDue)
        #expect(machine.readerCalled() == .releasePiece)
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    @Test func aPacedBodyWhoseWaitFailsIsCutOff() throws {
        var machine = try Self.awaitingPiece()
        machine.resumed(with: .close)
        #expect(name(machine.state) == "closing")
        #expect(machine.readerCalled() == .close)
        #expect(machine.readerCalled() == .close, "closing is final until completed")
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    @Test func aFaultBelowHTTPBreaksTheConnectionAtOnce() throws {
        var machine = Self.answering()
        guard case .breakConnection(_, let fault) = machine.answered(with: try Self.delivery(.fault(.connectionReset)))
        else {
            Issue.record("not broken")
            return
        }
        #expect(fault == .connectionReset)
        #expect(name(machine.state) == "closing")
        #expect(name(machine.handlerCalled()) == "close")
        machine.completed()
        #expect(name(machine.state) == "completed")
    }

    @Test func aProxyFailureIsAnsweredOverHTTP() throws {
        var machine = Self.answering()
        let failure = StubResponse.fault(.proxyFailure(.cannotConnectToHost, reason: "upstream down"))
        #expect(name(machine.answered(with: try Self.delivery(failure))) == "respondWithFault")
        #expect(name(machine.state) == "responding")
    }

    @Test func aTimeoutIsHeldThenClosed() throws {
        var machine = Self.answering()
        guard case .hold(_, let hold) = machine.answered(with: try Self.delivery(.fault(.timeout))) else {
            Issue.record("not held")
            return
        }
        #expect(hold == Delivery.untilTheClientGivesUp)
        #expect(name(machine.state) == "awaitingAnswer")
        machine.resumed(with: .close)
        #expect(name(machine.state) == "closing")
        #expect(name(machine.handlerCalled()) == "close")
    }

    // MARK: Answers awaited

    @Test func aPendingDeliveryIsTakenOnTheCallAfterTheResumption() throws {
        var machine = Self.answering()
        machine.answerPending()
        #expect(name(machine.state) == "awaitingAnswer")
        machine.resumed(with: .answer(.delivery(try Self.delivery(StubResponse(text: "late")))))
        #expect(name(machine.state) == "answerReady")
        #expect(name(machine.handlerCalled()) == "respond")
        #expect(name(machine.state) == "responding")
    }

    @Test func aPendingDeliveryMayHoldAFaultInTurn() throws {
        var machine = Self.answering()
        machine.answerPending()
        machine.resumed(with: .answer(.delivery(try Self.delivery(.fault(.timeout)))))
        #expect(name(machine.handlerCalled()) == "hold")
        #expect(name(machine.state) == "awaitingAnswer")
    }

    @Test func aReplyIsTakenOnTheCallAfterTheResumption() {
        var machine = Self.answering()
        machine.answerPending()
        machine.resumed(with: .answer(.reply(StubResponse(status: .accepted))))
        guard case .reply(let reply) = machine.handlerCalled() else {
            Issue.record("no reply")
            return
        }
        #expect(reply.status == .accepted)
        #expect(name(machine.state) == "responding")
    }

    @Test func aFailedWaitClosesTheConnection() {
        var machine = Self.answering()
        machine.answerPending()
        machine.resumed(with: .close)
        #expect(name(machine.state) == "closing")
        #expect(name(machine.handlerCalled()) == "close")
    }

    @Test func stoppingClosesEveryKindOfSuspendedConnection() throws {
        var waiting = Self.answering()
        waiting.answerPending()
        waiting.serverStopped()
        #expect(name(waiting.state) == "closing")
        #expect(name(waiting.handlerCalled()) == "close")

        var dribbling = try Self.awaitingPiece()
        dribbling.serverStopped()
        #expect(name(dribbling.state) == "closing")
        #expect(dribbling.readerCalled() == .close)
    }

    // MARK: Completion

    @Test func aClientMayGoAtAnyPointOutsideACallAndASuspension() throws {
        var beforeTheHead = Machine()
        beforeTheHead.completed()
        var midBody = Self.receiving()
        midBody.completed()
        var overTheLimit = Self.receiving()
        overTheLimit.receive("too long", limit: 1)
        overTheLimit.completed()
        var answerUntaken = Self.answering()
        answerUntaken.answerPending()
        answerUntaken.resumed(with: .answer(.reply(StubResponse())))
        answerUntaken.completed()
        var pieceUnsent = try Self.awaitingPiece()
        pieceUnsent.resumed(with: .pieceDue)
        pieceUnsent.completed()
        for machine in [beforeTheHead, midBody, overTheLimit, answerUntaken, pieceUnsent] {
            #expect(name(machine.state) == "completed")
        }
    }

    // MARK: Helpers

    /// A machine whose head is accepted.
    static func receiving() -> Machine {
        var machine = Machine()
        _ = machine.handlerCalled()
        machine.headAccepted()
        return machine
    }

    /// A machine with the whole request in hand, its answer being worked out.
    static func answering() -> Machine {
        var machine = receiving()
        _ = machine.handlerCalled()
        return machine
    }

    /// A machine streaming a paced body, waiting for its second piece.
    static func awaitingPiece() throws -> Machine {
        var machine = answering()
        let paced = StubResponse(text: "0123456789").throttled(.chunks(count: 2, over: .milliseconds(100)))
        _ = machine.answered(with: try delivery(paced))
        _ = machine.readerCalled()
        machine.pieceAwaited()
        return machine
    }

    /// The engine's delivery of `response` to a request of `method`.
    static func delivery(_ response: StubResponse, method: HTTPRequest.Method = .get) throws -> Delivery {
        let registry = StubRegistry()
        try registry.register(response, for: .any("/x"))
        guard case .ready(let delivery) = registry.engine.prepare(StubRequest(method: method, target: "/x")) else {
            throw CancellationError()
        }
        return delivery
    }
}

/// A state's or action's case name, without its values.
private func name(_ value: some Any) -> String {
    String(String(describing: value).prefix { $0 != "(" })
}

extension ExchangeStateMachine {
    fileprivate mutating func receive(_ text: String, limit: Int) {
        Data(text.utf8).withUnsafeBytes { bodyPieceArrived($0, limit: limit) }
    }
}
