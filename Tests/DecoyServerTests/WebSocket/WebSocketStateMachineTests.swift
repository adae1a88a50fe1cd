import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// Conversations of one upgraded connection, frame by frame with no socket: each test asserts the
/// actions the machine gives the channel. The frames are RFC 6455's own examples (section 5.7)
/// where it has one.
@Suite("The WebSocket frames' state machine")
struct WebSocketStateMachineTests {
    typealias Machine = WebSocketStateMachine

    /// RFC 6455 5.7: a single-frame masked text message containing "Hello".
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]

    @Test func theRFCsMaskedHelloIsDelivered() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.bytesArrived(Self.maskedHello) == [.deliver(.text("Hello"))])
    }

    @Test func aFrameSplitAnywhereIsDeliveredOnceWhole() {
        for split in 1..<Self.maskedHello.count {
            var machine = Machine(messageLimit: 100)
            let actions =
                machine.bytesArrived(Self.maskedHello[..<split]) + machine.bytesArrived(Self.maskedHello[split...])
            #expect(actions == [.deliver(.text("Hello"))], "split at \(split)")
        }
    }

    @Test func twoFramesInOneReadAreBothDelivered() {
        var machine = Machine(messageLimit: 100)
        let actions = machine.bytesArrived(Self.maskedHello + Self.maskedHello)
        #expect(actions == [.deliver(.text("Hello")), .deliver(.text("Hello"))])
    }

    @Test func theServerWritesTheRFCsUnmaskedFrames() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.send(.text("Hello")) == [.write(Data([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]))])
        // 256 bytes and 64 KiB of binary data, with the 16-bit and the 64-bit length.
        let medium = machine.send(.binary(Data(repeating: 7, count: 256)))
        #expect(medium == [.write(Data([0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 7, count: 256)))])
        let large = machine.send(.binary(Data(repeating: 7, count: 65536)))
        let head: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]
        #expect(large == [.write(Data(head + [UInt8](repeating: 7, count: 65536)))])
    }

    @Test func aPingIsAnsweredWithAPongOfItsPayloadEvenBetweenFragments() {
        var machine = Machine(messageLimit: 100)
        // RFC 5.7's fragmented "Hel" + "lo", masked here, with its "Hello" ping between the fragments.
        let actions =
            machine.bytesArrived(Self.client(.text, "Hel", isFinal: false))
            + machine.bytesArrived(Self.client(.ping, "Hello"))
            + machine.bytesArrived(Self.client(.continuation, "lo"))
        #expect(actions == [.write(Data([0x8a, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])), .deliver(.text("Hello"))])
    }

    @Test func aPongIsTakenSilently() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.bytesArrived([0x8a, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]) == [])
    }

    @Test func binaryFragmentsMakeOneMessage() {
        var machine = Machine(messageLimit: 100)
        let actions =
            machine.bytesArrived(Self.client(.binary, [1, 2], isFinal: false))
            + machine.bytesArrived(Self.client(.continuation, [3], isFinal: false))
            + machine.bytesArrived(Self.client(.continuation, [4]))
        #expect(actions == [.deliver(.binary(Data([1, 2, 3, 4])))])
    }

    // MARK: The close handshake

    @Test func theClientsCloseIsEchoedAndTheSocketClosed() {
        var machine = Machine(messageLimit: 100)
        let actions = machine.bytesArrived(Self.client(.close, [0x0F, 0xA0] + Array("bye".utf8)))
        #expect(actions == [.write(Data([0x88, 0x02, 0x0F, 0xA0])), .closeSocket])
        #expect(machine.state == .closed)
        #expect(machine.bytesArrived(Self.maskedHello) == [], "nothing is read after the close")
    }

    @Test func anEmptyCloseIsAnsweredWithNormalClosure() {
        var machine = Machine(messageLimit: 100)
        #expect(
            machine.bytesArrived(Self.client(.close, [])) == [.write(Data([0x88, 0x02, 0x03, 0xE8])), .closeSocket])
    }

    @Test func theServersCloseAwaitsTheClientsDroppingMessagesMeanwhile() {
        var machine = Machine(messageLimit: 100)
        let close = machine.close(.normal, reason: "done")
        #expect(close == [.write(Data([0x88, 0x06, 0x03, 0xE8] + Array("done".utf8)))])
        #expect(machine.send(.text("late")) == [])
        #expect(machine.bytesArrived(Self.maskedHello) == [])
        #expect(machine.bytesArrived(Self.client(.close, [0x03, 0xE8])) == [.closeSocket])
    }

    @Test func theClientLeavingClosesTheSocket() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.peerEnded() == [.closeSocket])
        #expect(machine.peerEnded() == [])
    }

    // MARK: A message stub's faults

    @Test func aDroppedConnectionClosesTheSocketWithNoCloseFrame() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.bytesArrived(Self.client(.text, "Hel", isFinal: false)) == [])
        #expect(machine.fault(.dropConnection) == [.closeSocket])
        #expect(machine.state == .closed)
        #expect(machine.send(.text("late")) == [])
        #expect(machine.bytesArrived(Self.client(.continuation, "lo")) == [], "nothing is read after the drop")
        #expect(machine.fault(.internalError) == [])
    }

    @Test func anInternalErrorSends1011AndClosesWithoutAwaitingTheClient() {
        var machine = Machine(messageLimit: 100)
        let reason = Array("A message stub's fault.".utf8)
        #expect(
            machine.fault(.internalError) == [
                .write(Data([0x88, UInt8(2 + reason.count), 0x03, 0xF3] + reason)), .closeSocket,
            ])
        #expect(machine.state == .closed)
        #expect(machine.fault(.dropConnection) == [])
    }

    @Test func aFaultAfterTheServersCloseStillEndsTheSocket() {
        var machine = Machine(messageLimit: 100)
        _ = machine.close(WebSocketCloseCode(rawValue: 4000), reason: "done")
        #expect(machine.fault(.internalError) == [.closeSocket], "no second close frame")
    }

    // MARK: Failing the connection

    @Test(arguments: [
        ([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f] as [UInt8], "an unmasked frame"),
        (client(.text, "Hello", flags: 0x40), "a reserved bit"),
        (client(rawOpcode: 0x3, "x"), "a reserved data opcode"),
        (client(rawOpcode: 0xB, "x"), "a reserved control opcode"),
        (client(.ping, "x", isFinal: false), "a fragmented control frame"),
        (client(.ping, String(repeating: "x", count: 126)), "a control frame over 125 bytes"),
        (client(.continuation, "x"), "a continuation of nothing"),
        (client(.text, "a", isFinal: false) + client(.text, "b"), "a new message within one"),
        (client(.close, [0x03]), "a one-byte close code"),
        (client(.close, [0x03, 0xED]), "the close code 1005, which is never sent"),
    ])
    func aBrokenProtocolIsClosedWith1002(_ bytes: [UInt8], _ what: String) {
        var machine = Machine(messageLimit: 200)
        let actions = machine.bytesArrived(bytes)
        #expect(actions.count == 2 && actions.last == .closeSocket, "\(what): the close frame, then the socket closed")
        #expect(Self.closeCode(of: actions) == 1002, "\(what)")
        #expect(machine.state == .closed, "\(what)")
    }

    @Test(arguments: [
        ([0xC3, 0x28] as [UInt8], "an invalid continuation"),
        ([0xED, 0xA0, 0x80], "a surrogate"),
        ([0xC0, 0xAF], "an overlong slash"),
        ([0xF4, 0x90, 0x80, 0x80], "past U+10FFFF"),
        ([0xE2, 0x82], "a truncated sequence at the end"),
    ])
    func textThatIsNotUTF8IsClosedWith1007(_ bytes: [UInt8], _ what: String) {
        #expect(Self.closeCode(Machine(messageLimit: 100), after: Self.client(.text, bytes)) == 1007, "\(what)")
    }

    @Test func invalidUTF8IsFoundInTheFragmentThatHasItNotAtTheEnd() {
        var machine = Machine(messageLimit: 100)
        #expect(machine.bytesArrived(Self.client(.text, [0x68, 0xE2], isFinal: false)) == [], "a split € so far")
        #expect(machine.bytesArrived(Self.client(.continuation, [0x82, 0xAC], isFinal: false)) == [])
        let broken = machine.bytesArrived(Self.client(.continuation, [0xFF], isFinal: false))
        #expect(broken.last == .closeSocket)
        #expect(machine.state == .closed)
    }

    @Test func aCharacterSplitAcrossFragmentsIsWhole() {
        var machine = Machine(messageLimit: 100)
        let actions =
            machine.bytesArrived(Self.client(.text, [0xE2, 0x82], isFinal: false))
            + machine.bytesArrived(Self.client(.continuation, [0xAC]))
        #expect(actions == [.deliver(.text("€"))])
    }

    @Test func aMessageOverTheLimitIsClosedWith1009BeforeItsPayloadComes() {
        var machine = Machine(messageLimit: 10)
        // Only the head of a 16-bit-length frame: the announced length alone is too much.
        #expect(Self.closeCode(machine, after: [0x82, 0xFE, 0x00, 0x0B]) == 1009)
        let fragments = Self.client(.binary, [UInt8](repeating: 1, count: 6), isFinal: false)
        #expect(machine.bytesArrived(fragments) == [])
        #expect(Self.closeCode(machine, after: Self.client(.continuation, [UInt8](repeating: 1, count: 5))) == 1009)
        let limit = Self.client(.binary, [UInt8](repeating: 1, count: 10))
        #expect(Self.closeCode(Machine(messageLimit: 10), after: limit) == nil, "exactly the limit is taken")
    }

    @Test func aSubprotocolIsTheFirstTheClientOffersThatTheChannelSpeaks() {
        let fields = [
            ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
            ("Sec-WebSocket-Version", "13"), ("Sec-WebSocket-Protocol", "chat, graphql-transport-ws, graphql-ws"),
        ]
        let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        #expect(
            WebSocketHandshake(method: .get, fields: fields, subprotocols: ["graphql-ws", "graphql-transport-ws"])
                == .accept(accept, subprotocol: "graphql-transport-ws"))
        #expect(WebSocketHandshake(method: .get, fields: fields) == .accept(accept), "the channel speaks none")
        let refused = WebSocketHandshake(method: .get, fields: fields, subprotocols: ["mqtt"])
        #expect(refused.map { if case .refuse(.badRequest, _) = $0 { true } else { false } } == true)
        let offersNone = WebSocketHandshake(method: .get, fields: Array(fields.dropLast()), subprotocols: ["mqtt"])
        #expect(offersNone.map { if case .refuse(.badRequest, _) = $0 { true } else { false } } == true)
    }

    @Test func theHandshakeAcceptsTheRFCsKey() {
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let fields = [
            ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
        ]
        #expect(WebSocketHandshake(method: .get, fields: fields) == .accept("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(WebSocketHandshake(method: .get, fields: [("Host", "a")]) == nil, "not an upgrade")
        let oldVersion = fields.map { $0.0 == "Sec-WebSocket-Version" ? ($0.0, "8") : $0 }
        #expect(
            WebSocketHandshake(method: .get, fields: oldVersion)
                == .refuse(.upgradeRequired, reason: "Decoy speaks WebSocket version 13 only."))
        #expect(WebSocketHandshake(method: .post, fields: fields) != .accept("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
    }

    // MARK: Helpers

    /// The code of the close frame the machine writes on `bytes`, `nil` when it writes none.
    static func closeCode(_ machine: Machine, after bytes: [UInt8]) -> Int? {
        var machine = machine
        return closeCode(of: machine.bytesArrived(bytes))
    }

    static func closeCode(of actions: [Machine.Action]) -> Int? {
        for case .write(let frame) in actions where frame.first == 0x88 {
            return Int(frame[frame.startIndex + 2]) << 8 | Int(frame[frame.startIndex + 3])
        }
        return nil
    }

    static func client(_ opcode: WebSocketFrame.Opcode, _ text: String, isFinal: Bool = true, flags: UInt8 = 0)
        -> [UInt8]
    {
        client(rawOpcode: opcode.rawValue, Array(text.utf8), isFinal: isFinal, flags: flags)
    }

    static func client(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], isFinal: Bool = true) -> [UInt8] {
        client(rawOpcode: opcode.rawValue, payload, isFinal: isFinal)
    }

    static func client(rawOpcode: UInt8, _ text: String) -> [UInt8] {
        client(rawOpcode: rawOpcode, Array(text.utf8), isFinal: true)
    }

    /// A client's frame, masked with RFC 5.7's key.
    static func client(rawOpcode: UInt8, _ payload: [UInt8], isFinal: Bool, flags: UInt8 = 0) -> [UInt8] {
        let mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
        var frame: [UInt8] = [(isFinal ? 0x80 : 0) | flags | rawOpcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        return frame + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }
}
