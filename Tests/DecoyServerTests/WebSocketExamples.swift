// swift-format-ignore-file
// The examples of docs/websockets.md, verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyServer
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's code under test: it says hello over a WebSocket and returns the first answer.
func greet(over url: URL) async throws -> String {
    let task = URLSession.shared.webSocketTask(with: url)
    task.resume()
    defer { task.cancel(with: .normalClosure, reason: nil) }
    try await task.send(.string("hello"))
    guard case .string(let answer) = try await task.receive() else { return "" }
    return answer
}

@Suite("WebSockets, as documented")
struct WebSocketExamples {
    @Test func aMessageStubInCodeAnswersTheApp() async throws {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/chat"), body: .equalTo("hello")),
                actions: [.send(.text("hi there"))]))

        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }

        let url = URL(string: "ws://127.0.0.1:\(server.port)/chat")!
        do {
            #expect(try await greet(over: url) == "hi there")
        } catch let error as URLError where error.code == .unsupportedURL {
            // URLSession on Linux speaks WebSockets only through a libcurl built with them (Debian
            // 12's has none): the stub is checked with the tests' own client there.
            let client = try await WebSocketTestClient.open(port: server.port, target: "/chat")
            client.send(text: "hello")
            #expect(await client.nextText() == "hi there")
        }
    }

    @Test func aTestPushesToTheAppsSocket() async throws {
        let registry = StubRegistry()
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let app = try await WebSocketTestClient.open(to: server, target: "/prices?symbol=ACME")

        let reached = try await server.sendToWebSockets(.text(#"{"price": 101}"#), matching: .get("/prices"))
        #expect(reached == 1)

        #expect(await app.nextText() == #"{"price": 101}"#)
    }

    @Test func httpTrafficPushesToTheSocketsItNames() async throws {
        let registry = StubRegistry()
        let order = try registry.register(StubResponse(status: .created), for: .post("/orders"))
        try registry.register(
            MessageStub(
                trigger: .httpStub(id: order.id),
                actions: [.send(.text(#"{"event": "order-created"}"#), to: .requestInitiated(.get("/events")))]))
        try registry.register(
            MessageStub(
                trigger: .httpRequest(.delete("/orders/42")),
                actions: [
                    .send(
                        .text("cancelled by {{request.headers.X-User}}"), to: .requestInitiated(.get("/events")),
                        templated: true)
                ]))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let app = try await WebSocketTestClient.open(to: server, target: "/events")
        try await WebSocketTestClient.http("POST", "/orders", to: server)
        #expect(await app.nextText() == #"{"event": "order-created"}"#)
        let connection = try RawConnection(port: server.port, receiveTimeout: .seconds(5))
        connection.send("DELETE /orders/42 HTTP/1.1\r\nHost: x\r\nX-User: ada\r\n\r\n")
        #expect(await app.nextText() == "cancelled by ada")
    }

    @Test func aScriptOnConnectAndAFault() async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            MessageStub(
                trigger: .connect(channel: .get("/prices")),
                actions: [
                    .send(.text(#"{"type": "welcome"}"#)),
                    .send(.text(#"{"price": 101}"#), delay: .fixed(.milliseconds(500))),
                    .send(.text(#"{"price": 102}"#), delay: .uniform(.milliseconds(200) ... .milliseconds(800))),
                    .close(code: 4000, reason: "market closed", delay: .fixed(.seconds(1))),
                ]))
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/prices"), body: .equalTo("crash")),
                actions: [.send(.text("bye")), .fault(.internalError)]))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let app = try await WebSocketTestClient.open(port: server.port, target: "/prices")
        #expect(await app.nextText() == #"{"type": "welcome"}"#)
        for price in [#"{"price": 101}"#, #"{"price": 102}"#] {
            await waitUntilSleeping(clock)
            await clock.advance(by: .milliseconds(800))
            #expect(await app.nextText() == price)
        }
        await waitUntilSleeping(clock)
        await clock.advance(by: .seconds(1))
        #expect(await app.closeCode() == 4000)
        let crashing = try await WebSocketTestClient.open(port: server.port, target: "/prices")
        #expect(await crashing.nextText() == #"{"type": "welcome"}"#)
        crashing.send(text: "crash")
        #expect(await crashing.nextText() == "bye")
        #expect(await crashing.closeCode() == 1011)
    }

    @Test func aChannelThatSpeaksASubprotocol() async throws {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/graphql"), body: .contains("connection_init")),
                actions: [.send(.text(#"{"type": "connection_ack"}"#))],
                subprotocols: ["graphql-transport-ws"]))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let app = try await WebSocketTestClient.open(
            port: server.port, target: "/graphql", fields: "Sec-WebSocket-Protocol: graphql-transport-ws\r\n")
        #expect(app.head.contains("Sec-WebSocket-Protocol: graphql-transport-ws"))
        app.send(text: #"{"type": "connection_init"}"#)
        #expect(await app.nextText() == #"{"type": "connection_ack"}"#)
    }

    @Test func aReplyMadeFromTheMessage() async throws {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                name: "Echo",
                trigger: .message(channel: .get("/echo")),
                actions: [.send(.text("you said {{message.body}}"), templated: true)]))
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(port: server.port, target: "/echo")
        client.send(text: "hi")
        #expect(await client.nextText() == "you said hi")
    }
}
