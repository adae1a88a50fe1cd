import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// Whole exchanges of the server, driven event by event with no socket: each test asserts the
/// sequence of actions the machine gives the daemon, from the request line to the request's end.
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

    @Test func aPlainRequestIsReadGatheredAndRespondedToAtOnce() throws {
        let delivery = try Self.delivery(StubResponse(text: "hi"))
        var machine = Machine(bodyLimit: 12)
        let actions = [
            machine.handlerCalled(), machine.readHead(), machine.receive("hello, "), machine.receive("world"),
            machine.handlerCalled(), machine.prepared(.ready(delivery)), machine.completed(),
        ]
        #expect(actions == [.readHead, .wait, .wait, .wait, .askEngine, .respond(Delivered(delivery)), .wait])
        #expect(machine.body == Data("hello, world".utf8))
        #expect(machine.state == .completed)
    }

    @Test func aBodyPastTheLimitIsDroppedIgnoredAndRefused() {
        var machine = Machine(bodyLimit: 8)
        let actions = [
            machine.handlerCalled(), machine.readHead(), machine.receive("12345"), machine.receive("678"),
        ]
        #expect(machine.state == .receiving, "exactly the limit is taken")
        let after = [machine.receive("9"), machine.receive("more"), machine.handlerCalled(), machine.completed()]
        #expect(actions + after == [.readHead, .wait, .wait, .wait, .wait, .wait, .refuseBody, .wait])
        #expect(machine.body.isEmpty)
    }

    @Test(arguments: [
        (Head(method: nil), Machine.HeadRefusal.malformed(.badRequest, reason: "The method is not a token.")),
        (
            Head(fields: [("Host", "a"), ("Host", "b")]),
            .malformed(.badRequest, reason: "The request has more than one Host field.")
        ),
        (Head(endsAtAFieldLine: true), .emptyFieldName),
        (Head(isOverConnectionLimit: true), .overConnectionLimit),
    ])
    func aRefusedHeadIsAnsweredAtOnceAndTheRestOfItsBodyIgnored(_ head: Head, _ refusal: Machine.HeadRefusal) {
        var machine = Machine(bodyLimit: 100)
        let actions = [machine.handlerCalled(), machine.readHead(head), machine.receive("late"), machine.completed()]
        #expect(actions == [.readHead, .refuseHead(refusal), .wait, .wait])
        #expect(machine.body.isEmpty)
    }

    /// Answered before the body is read; up to the limit, but at least a megabyte, of the body
    /// left unread is drained as the connection closes.
    @Test func aHeadAnnouncingTooLargeABodyIsRefusedAndTheBodyDrained() {
        var small = Machine(bodyLimit: 8)
        let actions = [small.handlerCalled(), small.readHead(Head(contentLength: 9)), small.completed()]
        #expect(actions == [.readHead, .refuseHead(.bodyTooLarge), .drainOnClose(bytes: 9)])
        var huge = Machine(bodyLimit: 8)
        _ = huge.handlerCalled()
        _ = huge.readHead(Head(contentLength: 1 << 30))
        #expect(huge.completed() == .drainOnClose(bytes: Machine.minimumDrain))
    }

    @Test func anAdminRequestIsRepliedToFromATask() {
        var machine = Machine(bodyLimit: 100)
        let reply = StubResponse(status: .accepted, text: "done")
        let actions = [
            machine.handlerCalled(), machine.readHead(Head(isForAdminAPI: true)), machine.handlerCalled(),
            machine.resumed(with: .reply(.whole(reply))), machine.handlerCalled(), machine.completed(),
        ]
        #expect(actions == [.readHead, .wait, .askAdminAPI, .resume(closing: false), .reply(Replied(reply)), .wait])
    }

    // MARK: The engine's delivery

    @Test func aPendingDeliveryIsSentOnTheCallAfterTheResumption() throws {
        let delivery = try Self.delivery(StubResponse(text: "late"))
        var machine = Self.preparing()
        let actions = [
            machine.prepared(.pending({ delivery })), machine.resumed(with: .delivery(Delivered(delivery))),
            machine.handlerCalled(), machine.completed(),
        ]
        let expected: [Machine.Action] = [
            .awaitDelivery(AwaitedDelivery { delivery }), .resume(closing: false), .respond(Delivered(delivery)),
            .wait,
        ]
        #expect(actions == expected)
    }

    @Test func aFailedWaitClosesTheConnection() throws {
        var machine = Self.preparing()
        let actions = [
            machine.prepared(.pending({ throw CancellationError() })), machine.resumed(with: .close),
            machine.handlerCalled(), machine.handlerCalled(), machine.completed(),
        ]
        #expect(
            actions == [
                .awaitDelivery(AwaitedDelivery { throw CancellationError() }), .resume(closing: true), .close, .close,
                .wait,
            ])
    }

    /// The engine withholds a `HEAD`'s body and tells its length; the server announces that length
    /// and sends no piece, whatever the body's pace.
    @Test(arguments: [
        StubResponse(text: "slow body").throttled(.bytesPerSecond(1)), StubResponse(text: "fast body"),
    ])
    func aHeadRequestGetsTheHeadAndTheLengthOfTheBodyWithheld(_ response: StubResponse) throws {
        let delivery = try Self.delivery(response, method: .head)
        var machine = Self.preparing()
        #expect(machine.prepared(.ready(delivery)) == .stream(response.head, length: 9, of: Delivered(delivery)))
        guard case .streaming(let stream) = machine.state else {
            Issue.record("not streaming")
            return
        }
        let reads = [machine.readerCalled(capacity: 100)]
        #expect(machine.resumed(with: .piece(nil)) == .resume(closing: true), "a sized body is cut off short")
        #expect(reads == [.awaitPiece(stream.body)])
    }

    @Test func aPacedBodyIsStreamedPieceByPieceThenEnded() throws {
        let paced = StubResponse(text: "0123456789").throttled(.chunks(count: 2, over: .milliseconds(100)))
        let delivery = try Self.delivery(paced)
        var machine = Self.preparing()
        #expect(machine.prepared(.ready(delivery)) == .stream(paced.head, length: 10, of: Delivered(delivery)))
        let body = try #require(machine.streamedBody)
        let steps = [
            machine.read(4), machine.resumed(piece: "01234"), machine.read(4), machine.read(4), machine.read(4),
            machine.resumed(piece: "56789"), machine.read(8), machine.read(8),
        ]
        #expect(
            steps == [
                .read(.awaitPiece(body)), .resume(.resume(closing: false)), .read(.send(Data("0123".utf8))),
                .read(.send(Data("4".utf8))), .read(.awaitPiece(body)), .resume(.resume(closing: false)),
                .read(.send(Data("56789".utf8))), .read(.awaitPiece(body)),
            ])
        // An open-ended stream's producer may end; a sized one's has no more to give once all is out.
        #expect(machine.resumed(with: .piece(nil)) == .resume(closing: true))
        #expect(machine.readerCalled(capacity: 8) == .close(cutOffBy: nil))
        #expect(machine.completed() == .wait)
    }

    @Test func aStreamedReplyOfTheServersOwnEndsWhenItsProducerDoes() {
        var machine = Self.preparing(admin: true)
        let feed = StreamedBody(AsyncStream<Data> { $0.finish() })
        let head = HTTPResponse(status: .ok)
        let actions = [machine.resumed(with: .reply(.stream(head, feed))), machine.handlerCalled()]
        #expect(actions == [.resume(closing: false), .stream(head, length: nil, of: nil)])
        let steps = [
            machine.read(8), machine.resumed(piece: "hi"), machine.read(8), machine.read(8),
            machine.resumed(piece: nil), machine.read(8), machine.read(8),
        ]
        #expect(
            steps == [
                .read(.awaitPiece(feed)), .resume(.resume(closing: false)), .read(.send(Data("hi".utf8))),
                .read(.awaitPiece(feed)), .resume(.resume(closing: false)), .read(.end), .read(.end),
            ])
        #expect(machine.completed() == .wait)
    }

    @Test func aBrokenBodyIsCutOffItsFaultsWay() throws {
        var machine = try Self.awaitingPiece()
        #expect(machine.resumed(with: .broken(.connectionReset)) == .resume(closing: true))
        let reads = [machine.readerCalled(capacity: 8), machine.readerCalled(capacity: 8)]
        #expect(reads == [.close(cutOffBy: .connectionReset), .close(cutOffBy: .connectionReset)])
        #expect(machine.completed() == .wait)
    }

    @Test func aFaultBelowHTTPBreaksTheConnectionAtOnce() throws {
        let delivery = try Self.delivery(.fault(.connectionReset))
        var machine = Self.preparing()
        let actions = [machine.prepared(.ready(delivery)), machine.handlerCalled(), machine.completed()]
        #expect(actions == [.breakConnection(Delivered(delivery), .connectionReset), .close, .wait])
    }

    /// The engine delivers a proxy failure as its response, as to every serving.
    @Test func aProxyFailureIsRespondedToLikeAnyResponse() throws {
        let failure = StubResponse.fault(.proxyFailure(.cannotConnectToHost, reason: "upstream down"))
        let delivery = try Self.delivery(failure)
        var machine = Self.preparing()
        let actions = [machine.prepared(.ready(delivery)), machine.completed()]
        #expect(actions == [.respond(Delivered(delivery)), .wait])
    }

    @Test func aTimeoutIsHeldThenClosed() throws {
        let delivery = try Self.delivery(.fault(.timeout))
        var machine = Self.preparing()
        let actions = [
            machine.prepared(.ready(delivery)), machine.resumed(with: .close), machine.handlerCalled(),
            machine.completed(),
        ]
        #expect(
            actions == [
                .hold(Delivered(delivery), Delivery.untilTheClientGivesUp), .resume(closing: true), .close, .wait,
            ])
    }

    /// The server's engine decides the hold, within the server's limit; the daemon only waits it out.
    @Test func aTimeoutIsHeldForTheServersLimit() throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(.timeout), for: .any("/x"))
        let server = MockServer(registry: registry, configuration: .init(faultTimeoutHold: .seconds(3)))
        guard case .ready(let delivery) = server.engine.prepare(StubRequest(method: .get, target: "/x")) else {
            throw CancellationError()
        }
        var machine = Self.preparing()
        #expect(machine.prepared(.ready(delivery)) == .hold(Delivered(delivery), .seconds(3)))
    }

    @Test func aPendingDeliveryMayHoldAFaultInTurn() throws {
        let delivery = try Self.delivery(.fault(.timeout))
        var machine = Self.preparing()
        let actions = [
            machine.prepared(.pending({ delivery })), machine.resumed(with: .delivery(Delivered(delivery))),
            machine.handlerCalled(),
        ]
        #expect(actions.last == .hold(Delivered(delivery), Delivery.untilTheClientGivesUp))
        #expect(machine.state == .awaitingTask)
    }

    // MARK: The server's stopping and the client's going

    @Test func stoppingClosesEveryKindOfSuspendedConnection() throws {
        var waiting = Self.preparing()
        let actions = [
            waiting.prepared(.pending({ throw CancellationError() })), waiting.serverStopped(),
            waiting.handlerCalled(), waiting.completed(),
        ]
        #expect(actions.dropFirst() == [.resume(closing: true), .close, .wait])

        var held = Self.preparing()
        _ = held.prepared(.ready(try Self.delivery(.fault(.timeout))))
        #expect([held.serverStopped(), held.handlerCalled()] == [.resume(closing: true), .close])

        var dribbling = try Self.awaitingPiece()
        #expect(dribbling.serverStopped() == .resume(closing: true))
        #expect(dribbling.readerCalled(capacity: 8) == .close(cutOffBy: nil))
        #expect(dribbling.completed() == .wait)
    }

    @Test func aClientMayGoAtAnyPointOutsideACallAndASuspension() throws {
        var beforeTheHead = Machine(bodyLimit: 100)
        var midBody = Self.receiving()
        _ = midBody.receive("half")
        var overTheLimit = Self.receiving()
        _ = overTheLimit.receive(String(repeating: "x", count: 101))
        var replyUntaken = Self.preparing(admin: true)
        _ = replyUntaken.resumed(with: .reply(.whole(StubResponse())))
        var deliveryUntaken = Self.preparing()
        _ = deliveryUntaken.prepared(.pending({ try Self.delivery(StubResponse()) }))
        _ = deliveryUntaken.resumed(with: .delivery(Delivered(try Self.delivery(StubResponse()))))
        var pieceUnsent = try Self.awaitingPiece()
        _ = pieceUnsent.resumed(with: .piece(Data("56789".utf8)))
        var machines = [beforeTheHead, midBody, overTheLimit, replyUntaken, deliveryUntaken, pieceUnsent]
        let actions = machines.indices.map { machines[$0].completed() }
        #expect(actions == Array(repeating: .wait, count: machines.count))
        #expect(machines.allSatisfy { $0.state == .completed })
        _ = beforeTheHead.completed()
    }

    // MARK: Helpers

    /// A machine whose head is accepted.
    static func receiving(admin: Bool = false) -> Machine {
        var machine = Machine(bodyLimit: 100)
        _ = machine.handlerCalled()
        _ = machine.readHead(Head(isForAdminAPI: admin))
        return machine
    }

    /// A machine with the whole request in hand: the engine is asked, or the admin API's task is.
    static func preparing(admin: Bool = false) -> Machine {
        var machine = receiving(admin: admin)
        _ = machine.handlerCalled()
        return machine
    }

    /// A machine streaming a paced body, its first piece sent, waiting for its second.
    static func awaitingPiece() throws -> Machine {
        var machine = preparing()
        let paced = StubResponse(text: "0123456789").throttled(.chunks(count: 2, over: .milliseconds(100)))
        _ = machine.prepared(.ready(try delivery(paced)))
        _ = machine.readerCalled(capacity: 100)
        _ = machine.resumed(with: .piece(Data("01234".utf8)))
        _ = machine.readerCalled(capacity: 100)
        _ = machine.readerCalled(capacity: 100)
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

    /// The facts of a head as the daemon tells them; by default a sound `GET`.
    struct Head: Sendable {
        var method: HTTPRequest.Method? = .get
        var fields: [(name: String, value: String)] = [("Host", "x")]
        var endsAtAFieldLine = false
        var contentLength: Int?
        var isOverConnectionLimit = false
        var isForAdminAPI = false
    }
}

extension ExchangeStateMachine {
    fileprivate mutating func readHead(_ head: ExchangeStateMachineTests.Head = .init()) -> Action {
        headRead(
            method: head.method, fields: head.fields, isForAdminAPI: head.isForAdminAPI, version: "HTTP/1.1",
            endsAtAFieldLine: head.endsAtAFieldLine, contentLength: head.contentLength,
            isOverConnectionLimit: head.isOverConnectionLimit)
    }

    fileprivate mutating func receive(_ text: String) -> Action {
        Data(text.utf8).withUnsafeBytes { bodyPieceArrived($0) }
    }

    /// Resumes a connection awaiting a piece with `text`, or the producer's end.
    fileprivate mutating func resumed(piece text: String?) -> Step {
        .resume(resumed(with: .piece(text.map { Data($0.utf8) })))
    }

    /// Calls the content reader for at most `capacity` bytes.
    fileprivate mutating func read(_ capacity: Int) -> Step {
        .read(readerCalled(capacity: capacity))
    }

    fileprivate var streamedBody: StreamedBody? {
        if case .streaming(let stream) = state { stream.body } else { nil }
    }
}

/// One step of a streamed body's exchange: a call of the content reader, or a resumption.
private enum Step: Equatable {
    case read(ExchangeStateMachine.ReaderAction)
    case resume(ExchangeStateMachine.Action)
}
