import Clocks
import Decoy
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// WebSockets through libmicrohttpd's upgrade, end to end over a socket: the handshake, message
/// stubs registered in code, pushes from a test, and a client that breaks the protocol.
@Suite("WebSockets over the server")
struct WebSocketServerTests {
    static func server(_ registry: StubRegistry) throws -> MockServer {
        let server = MockServer(registry: registry)
        try server.start()
        return server
    }

    static func chatRegistry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/chat"), body: .equalTo("ping")), actions: [.send(.text("pong"))]))
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/chat"), body: .matches("hello .*")),
                actions: [.send(.text("you said {{message.body}} on {{message.path}}"), templated: true)]))
        try registry.register(StubResponse(text: "plain"), for: .get("/plain"))
        return registry
    }

    @Test func theHandshakeIsAcceptedAndAMessageStubAnswers() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        #expect(client.head.hasPrefix("HTTP/1.1 101"))
        #expect(client.head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        #expect(client.head.lowercased().contains("upgrade: websocket"))
        client.send(text: "ping")
        #expect(await client.nextText() == "pong")
        client.send(text: "hello there")
        #expect(await client.nextText() == "you said hello there on /chat")
        #expect(server.webSockets.journal.events.map(\.kind) == [.received, .sent, .received, .sent])
    }

    @Test func anHTTPRequestOrStubSetsOffMessagesToTheChannelsItNames() async throws {
        let registry = try Self.chatRegistry()
        let mapping = try registry.register(StubResponse(text: "ordered"), for: .post("/orders"))
        try registry.register(
            MessageStub(
                trigger: .httpRequest(.post("/orders")),
                actions: [.send(.text("order {{request.body}}"), to: .requestInitiated(.get("/feed")), templated: true)]
            ))
        try registry.register(
            MessageStub(
                priority: 1, trigger: .httpStub(id: mapping.id),
                actions: [.send(.text("by the stub"), to: .requestInitiated(.get("/feed")))]))
        let server = try Self.server(registry)
        defer { server.stop() }
        let feed = try await WebSocketTestClient.open(to: server, target: "/feed")
        let chat = try await WebSocketTestClient.open(to: server, target: "/chat")
        try await WebSocketTestClient.http("POST", "/orders", body: "42", to: server)
        // Both stubs act, by priority, as WireMock runs every stub HTTP traffic sets off.
        #expect(await feed.nextText() == "by the stub")
        #expect(await feed.nextText() == "order 42")
        // The chat socket got nothing: its ping is the first thing answered.
        chat.send(text: "ping")
        #expect(await chat.nextText() == "pong")
        #expect(server.webSockets.journal.events.filter { $0.kind == .sent }.count == 3)
    }

    @Test func aMessageStubOnHTTPTrafficCannotSendToAnOriginatingChannel() {
        #expect(throws: DecoyError.self) {
            try StubRegistry().register(MessageStub(trigger: .httpStub(id: "x"), actions: [.send(.text("lost"))]))
        }
    }

    @Test func aScriptOnConnectIsPacedByTheEnginesClockThenCloses() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            MessageStub(
                trigger: .connect(channel: .get("/ticks")),
                actions: [
                    .send(.text("hello {{message.query.name}}"), templated: true),
                    .send(.text("tick 1"), delay: .fixed(.seconds(1))),
                    .send(.text("tick 2"), delay: .fixed(.seconds(1))),
                    .close(code: 4000, reason: "done"),
                ]))
        let server = try Self.server(registry)
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/ticks?name=ada")
        #expect(await client.nextText() == "hello ada")
        for tick in 1...2 {
            await waitUntilSleeping(clock)
            #expect(server.webSockets.journal.events.count == tick, "tick \(tick) waits for its delay")
            await clock.advance(by: .seconds(1))
            #expect(await client.nextText() == "tick \(tick)")
        }
        let close = await client.nextFrame()
        #expect(close.map { Array($0.payload) } == [0x0F, 0xA0] + Array("done".utf8))
        client.send(WebSocketStateMachineTests.client(.close, [0x0F, 0xA0]))
        #expect(await client.connection.isClosedByPeer())
    }

    @Test func stoppingTheServerCancelsAPacedScriptsWait() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            MessageStub(
                trigger: .connect(channel: .get("/later")),
                actions: [.send(.text("a minute later"), delay: .fixed(.seconds(60)))]))
        let server = try Self.server(registry)
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/later")
        defer { client.connection.close() }
        await waitUntilSleeping(clock)
        #expect(server.webSockets.waitingScripts == 1)
        server.stop()
        #expect(server.webSockets.waitingScripts == 0)
    }

    @Test func aStubsFaultsDropTheConnectionOrFailItWith1011() async throws {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/crash"), body: .equalTo("fail")),
                actions: [.send(.text("bye")), .fault(.internalError)]))
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/crash"), body: .equalTo("drop")), actions: [.fault(.dropConnection)]))
        let server = try Self.server(registry)
        defer { server.stop() }
        let failed = try await WebSocketTestClient.open(port: server.port, target: "/crash")
        let dropped = try await WebSocketTestClient.open(port: server.port, target: "/crash")
        failed.send(text: "fail")
        #expect(await failed.nextText() == "bye")
        #expect(await failed.closeCode() == 1011)
        #expect(await failed.connection.isClosedByPeer())
        dropped.send(text: "drop")
        #expect(await dropped.nextFrame() == nil, "no close frame")
        #expect(server.openWebSocketCount == 0)
    }

    @Test func theHandshakeAnswersWithTheSubprotocolTheChannelSpeaks() async throws {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/graphql")), actions: [.send(.text(#"{"type":"connection_ack"}"#))],
                subprotocols: ["graphql-transport-ws"]))
        let server = try Self.server(registry)
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(
            port: server.port, target: "/graphql",
            fields: "Sec-WebSocket-Protocol: graphql-ws, graphql-transport-ws\r\n")
        #expect(client.head.hasPrefix("HTTP/1.1 101"))
        #expect(client.head.contains("Sec-WebSocket-Protocol: graphql-transport-ws\r\n"))
        client.send(text: #"{"type":"connection_init"}"#)
        #expect(await client.nextText() == #"{"type":"connection_ack"}"#)
        let refused = try RawConnection(port: server.port, receiveTimeout: .seconds(5))
        refused.send(
            "GET /graphql HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Protocol: mqtt\r\n\r\n")
        #expect(await refused.read(until: "offers mqtt.").hasPrefix("HTTP/1.1 400"))
        let elsewhere = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        #expect(elsewhere.head.hasPrefix("HTTP/1.1 101"), "a channel no stub gives subprotocols chooses none")
        #expect(!elsewhere.head.contains("Sec-WebSocket-Protocol"))
    }

    @Test func aCloseCodeAServerMayNotSendIsRefused() {
        for code in [1005, 1006, 1015, 2000, 5000] {
            #expect(throws: DecoyError.self, "\(code)") {
                try StubRegistry().register(MessageStub(trigger: .connect(), actions: [.close(code: code)]))
            }
        }
    }

    @Test func aMessageNoStubMatchesIsJournaledUnanswered() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/elsewhere")
        client.send(text: "ping")
        // Pinged after, so that the pong says the message before it was read and left unanswered.
        client.send(WebSocketStateMachineTests.client(.ping, "p"))
        let frame = await client.nextFrame()
        #expect(frame?.opcode == 0xA)
        #expect(server.webSockets.journal.events.map(\.stubID) == [nil])
    }

    @Test func aTestPushesToTheSocketsItChooses() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let chat = try await WebSocketTestClient.open(to: server, target: "/chat?room=1")
        let other = try await WebSocketTestClient.open(to: server, target: "/other")
        #expect(server.openWebSocketCount == 2)
        let reached = try await server.sendToWebSockets(.binary(Data([1, 2, 3])), matching: .get("/chat"))
        #expect(reached == 1)
        let frame = await chat.nextFrame()
        #expect(frame?.opcode == 2)
        #expect(frame?.payload == [1, 2, 3])
        #expect(try await server.sendToWebSockets(.text("all")) == 2)
        #expect(await other.nextText() == "all")
    }

    @Test func aBrokenFrameClosesItsSocketAndTheServerGoesOn() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let bystander = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        let broken = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        broken.send([0x81, 0x02, 0x68, 0x69]) // unmasked
        #expect(await broken.closeCode() == 1002)
        #expect(await broken.connection.isClosedByPeer())
        bystander.send(text: "ping")
        #expect(await bystander.nextText() == "pong")
        let plain = try RawConnection(port: server.port, receiveTimeout: .seconds(5))
        plain.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await plain.read(until: "plain").hasSuffix("plain"))
    }

    @Test func theCloseHandshakeEchoesTheClientsCode() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        client.send(WebSocketStateMachineTests.client(.close, [0x0F, 0xA0]))
        #expect(await client.closeCode() == 4000)
        #expect(await client.connection.isClosedByPeer())
        #expect(server.openWebSocketCount == 0)
    }

    @Test func aHandshakeOfAnotherVersionIsRefused() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let connection = try RawConnection(port: server.port, receiveTimeout: .seconds(5))
        connection.send(
            "GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n")
        #expect(await connection.read(until: "only.").hasPrefix("HTTP/1.1 426"))
    }

    @Test func aClientThatDoesNotReadIsDroppedOnceItsPendingOutputPassesTheBound() async throws {
        let server = try Self.server(Self.chatRegistry())
        defer { server.stop() }
        let idle = try await WebSocketTestClient.open(to: server, target: "/chat")
        let megabyte = ChannelMessage.binary(Data(repeating: 7, count: 1024 * 1024))
        // Far more than the socket's buffers and the 4 MiB bound hold together.
        for _ in 0..<32 { try await server.sendToWebSockets(megabyte) }
        #expect(server.openWebSocketCount == 0)
        let (text, _) = await idle.connection.readToEnd()
        #expect(text.utf8.count < 32 * 1024 * 1024, "the connection ended before everything was sent")
    }

    @Test func anIdleSocketOutlivesTheConnectionTimeout() async throws {
        var configuration = MockServer.Configuration()
        configuration.connectionTimeout = .seconds(1)
        let server = MockServer(registry: try Self.chatRegistry(), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        // libmicrohttpd's own timeout runs on the wall clock, which no test clock replaces.
        try await Task.sleep(for: .seconds(2.5))
        client.send(text: "ping")
        #expect(await client.nextText() == "pong")
    }

    @Test func stoppingWithSocketsOpenClosesThemGoingAway() async throws {
        let server = try Self.server(Self.chatRegistry())
        let client = try await WebSocketTestClient.open(port: server.port, target: "/chat")
        client.send(text: "ping")
        #expect(await client.nextText() == "pong")
        await offThePool { server.stop() }
        #expect(await client.closeCode() == 1001)
        #expect(await client.connection.isClosedByPeer())
    }
}
