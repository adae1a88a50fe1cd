// swift-format-ignore-file
// The examples of docs/websockets.md on checking messages, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyRemote
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import Testing

/// Waits for what the app typed; written at the top level so that the documented line fits in 120 columns.
func typed(on server: MockServer) async throws -> [MessageEvent] {
    let sent = try await server.expectMessages(.received(on: .get("/chat")), count: .atLeast(3), timeout: .seconds(5))
    return sent
}

@Suite("WebSocket assertions, as documented")
struct WebSocketAssertionExamples {
    static func chatServer() throws -> MockServer {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(trigger: .message(channel: .get("/chat")), actions: [.send(.text("ok"))]))
        let server = MockServer(registry: registry)
        try server.start()
        return server
    }

    @Test func aTestChecksWhatTheAppSent() async throws {
        let server = try Self.chatServer()
        defer { server.stop() }
        let app = try await WebSocketTestClient.open(to: server, target: "/chat")
        app.send(text: "hello")

        try await server.expectMessages(.received(on: .get("/chat"), body: .equalTo("hello")), count: .once)

        for text in ["h", "he", "hel"] { app.send(text: text) }
        #expect(try await typed(on: server).count >= 3)
    }

    @Test func aUITestPushesAndChecksThroughRemoteDecoy() async throws {
        let server = try Self.chatServer()
        defer { server.stop() }
        let decoy = RemoteDecoy(baseURL: server.baseURL)
        let app = try await WebSocketTestClient.open(to: server, target: "/prices")
        app.send(text: "hello")
        app.send(text: #"{"subscribe": "ACME"}"#)
        _ = try await server.expectMessages(.received(body: .contains("subscribe")), timeout: .seconds(10))

        let reached = try await decoy.sendToWebSockets(.text(#"{"price": 101}"#), matching: .get("/prices"))
        try await decoy.expectMessages(.received(on: .get("/prices"), body: .contains("subscribe")), count: .once)
        let hellos = try await decoy.messageCount(matching: .received(body: .equalTo("hello")))

        #expect(reached == 1)
        #expect(hellos == 1)
        #expect(await app.nextText() == #"{"price": 101}"#)
    }
}
