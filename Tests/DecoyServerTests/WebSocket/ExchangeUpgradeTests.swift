import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// The exchange's state machine through a WebSocket handshake (docs/architecture.md's table): the
/// `101` queued once the request is whole, the upgraded state, and the completion that ends it.
@Suite("The exchange's state machine through a WebSocket handshake")
struct ExchangeUpgradeTests {
    typealias Machine = ExchangeStateMachine

    /// A machine whose sound head was read, in `receiving`.
    static func received() -> Machine {
        var machine = Machine(bodyLimit: 100)
        _ = machine.handlerCalled()
        _ = machine.headRead(
            method: .get, fields: [("Host", "x")], isForAdminAPI: false, version: "HTTP/1.1", endsAtAFieldLine: false,
            contentLength: nil, isOverConnectionLimit: false)
        return machine
    }

    @Test func anAcceptedHandshakeIsUpgradedAndCompletedWhenItsSocketGoesBack() {
        var machine = Self.received()
        let actions = [
            machine.asksToUpgrade(.accept("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")), machine.handlerCalled(),
            machine.upgraded(),
        ]
        #expect(actions == [.wait, .upgrade(accept: "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), .openChannel])
        #expect(machine.state == .upgraded)
        #expect(machine.completed() == .wait)
        #expect(machine.state == .completed)
    }

    @Test func aHandshakeWhose101IsNotSentCompletesUnupgraded() {
        var machine = Self.received()
        let actions = [machine.asksToUpgrade(.accept("a")), machine.handlerCalled(), machine.completed()]
        #expect(actions == [.wait, .upgrade(accept: "a"), .wait])
        #expect(machine.state == .completed)
    }

    @Test func aRefusedHandshakeIsAnsweredAsARefusedHead() {
        var machine = Self.received()
        let refusal = WebSocketHandshake.refuse(.upgradeRequired, reason: "version 13 only")
        let actions = [machine.asksToUpgrade(refusal), machine.handlerCalled(), machine.completed()]
        #expect(actions == [.wait, .refuseHead(.malformed(.upgradeRequired, reason: "version 13 only")), .wait])
    }

    @Test func aRequestThatAsksNoUpgradeGoesToTheEngine() {
        var machine = Self.received()
        #expect(machine.handlerCalled() == .askEngine)
    }
}
