import Decoy
import DecoyClient
import DecoyRemote
import DecoyServerTesting
import DecoyTesting
import Foundation
import Testing

@testable import DecoyServer

/// DecoyTesting's assertions on the messages of WebSockets, against a `MockServer` in the process
/// and through `RemoteDecoy`, and `RemoteDecoy`'s pushes and reads of the message journal.
@Suite("Message assertions")
struct MessageExpectationTests {
    static func echoServer() throws -> MockServer {
        let registry = StubRegistry()
        try registry.register(
            MessageStub(
                trigger: .message(channel: .get("/chat")),
                actions: [.send(.text("{{message.body}}"), templated: true)]))
        let server = MockServer(registry: registry)
        try server.start()
        return server
    }

    /// The failures `body` records, their messages.
    static func failures(_ body: () async throws -> Void) async throws -> [String] {
        let recorded = Mutex<[String]>([])
        try await withKnownIssue {
            try await body()
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined(separator: "\n")) }
            return true
        }
        return recorded.withLock { $0 }
    }

    @Test(arguments: [false, true])
    func waitsForTheMessagesAClientSends(remotely: Bool) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let recording: any MessageRecording = remotely ? RemoteDecoy(baseURL: server.baseURL) : server
        let client = try await WebSocketTestClient.open(to: server, target: "/chat")
        // Sent once the assertion has begun, the second only after the first's echo, so that it
        // must wait for them to arrive.
        async let waited = recording.expectMessages(
            .received(on: .get("/chat"), body: .contains("hello")), count: .exactly(2), timeout: .seconds(10))
        client.send(text: "hello")
        #expect(await client.nextText() == "hello")
        client.send(text: "hello again")
        let found = try await waited
        #expect(found.map(\.message) == [.text("hello"), .text("hello again")])
        #expect(found.allSatisfy { $0.direction == .received && $0.channelRequest.target == "/chat" })
        // The echoes match the body too, but were sent, not received.
        let echoes = try await recording.expectMessages(.sent(body: .contains("hello")), count: .exactly(2))
        #expect(echoes.map(\.direction) == [.sent, .sent])
    }

    @Test(arguments: [false, true])
    func tooFewMessagesFailWithTheNearMisses(remotely: Bool) async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let recording: any MessageRecording = remotely ? RemoteDecoy(baseURL: server.baseURL) : server
        let client = try await WebSocketTestClient.open(to: server, target: "/chat?room=1")
        client.send(text: "helo")
        _ = try await recording.expectMessages(.sent(body: .equalTo("helo")), timeout: .seconds(10))
        let failures = try await Self.failures {
            try await recording.expectMessages(
                .received(on: .get("/chat"), body: .equalTo("hello")), timeout: .milliseconds(50))
        }
        #expect(
            failures == [
                """
                Expected at least 1 message received on GET /chat with a body equal to "hello", but found 0 within \
                0.05 seconds.
                Near misses (closest first):
                  received "helo" on GET /chat?room=1: body: expected equal to "hello", got "helo"
                See every message at \(server.baseURL)/__admin/dashboard
                """
            ])
    }

    @Test func tooManyMessagesFailWithoutWaiting() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let client = try await WebSocketTestClient.open(to: server, target: "/chat")
        client.send(text: "hi")
        _ = try await server.expectMessages(.sent(body: .equalTo("hi")), timeout: .seconds(10))
        let started = ContinuousClock.now
        let failures = try await Self.failures {
            try await server.expectMessages(.received(), count: .never, timeout: .seconds(30))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(
            failures == [
                """
                Expected no messages received on any channel, but found 1.
                Matching messages:
                  received "hi" on GET /chat
                See every message at \(server.baseURL)/__admin/dashboard
                """
            ])
    }

    @Test func remoteDecoyPushesCountsAndFindsMessages() async throws {
        let server = try Self.echoServer()
        defer { server.stop() }
        let decoy = RemoteDecoy(baseURL: server.baseURL)
        let prices = try await WebSocketTestClient.open(to: server, target: "/prices")
        let news = try await WebSocketTestClient.open(to: server, target: "/news")

        #expect(try await decoy.sendToWebSockets(.text("101"), matching: .get("/prices")) == 1)
        #expect(await prices.nextText() == "101")
        #expect(try await decoy.sendToWebSockets(.binary(Data("all".utf8))) == 2)
        #expect(await news.nextFrame()?.payload == Array("all".utf8))
        #expect(try await decoy.messageCount(matching: MessagePattern()) == 3)
        #expect(try await decoy.messageCount(matching: .sent(on: .get("/news"))) == 1)
        let found = try await decoy.messageEvents(matching: MessagePattern(body: .equalTo("101")))
        #expect(found.map(\.channelRequest.target) == ["/prices"])
        #expect(found.first?.stubID == nil)
        #expect(try await decoy.messageEvents().count == 3)
        try await decoy.resetMessages()
        #expect(try await decoy.messageEvents().isEmpty)
    }
}
