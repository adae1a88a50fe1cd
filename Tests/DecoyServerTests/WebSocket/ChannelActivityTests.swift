import Decoy
import DecoyClient
import Foundation
import Testing

@testable import DecoyServer

/// What the request log and the dashboard's live feed say of WebSockets: the upgrade, each
/// channel's messages and its close.
@Suite("WebSockets in the request log and the dashboard's feed")
struct ChannelActivityTests {
    @Test func theRequestLogNamesTheUpgradeAndTheClose() async throws {
        let lines = RequestLogTests.Lines()
        let server = MockServer(
            registry: try WebSocketServerTests.chatRegistry(), configuration: .init(logger: lines.logger))
        try server.start()
        let client = try await WebSocketTestClient.open(to: server, target: "/chat?room=1")
        client.send(text: "ping")
        #expect(await client.nextText() == "pong")
        client.send(WebSocketStateMachineTests.client(.close, [0x03, 0xE8] + Array("bye".utf8)))
        #expect(await client.closeCode() == 1000)
        #expect(await client.connection.isClosedByPeer())
        let stopped = try await WebSocketTestClient.open(to: server, target: "/chat")
        server.stop()
        #expect(await stopped.closeCode() == 1001)
        let logged = lines.lines.withLock { $0.map(\.text) }
        #expect(logged.contains { $0.hasPrefix("GET /chat?room=1 → 101 (WebSocket) ") }, "\(logged)")
        #expect(
            logged.contains {
                $0.hasPrefix(#"GET /chat?room=1 → WebSocket closed by the client: 1000 "bye"; "#)
                    && $0.contains("; 1 message received, 1 sent, open ")
            }, "\(logged)")
        #expect(
            logged.contains { $0.hasPrefix("GET /chat → WebSocket closed by the server: 1001; 0 messages received") },
            "\(logged)")
    }

    @Test func theDashboardsFeedTellsEachChannelItsMessagesAndItsClose() async throws {
        try await AdminConnection.withServer(WebSocketServerTests.chatRegistry()) { http, _ in
            // The feed's head comes from the admin API's task, which a full run's busy task pool can
            // hold back for seconds: a bound far above that, reached only if the feed never answers.
            let feed = try RawConnection(port: http.server.port, receiveTimeout: .seconds(30))
            feed.send("GET /__admin/channel-events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = await feed.read(until: ": Decoy's WebSockets, live\n\n")
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.contains("Content-Type: text/event-stream; charset=utf-8"))
            let client = try await WebSocketTestClient.open(to: http.server, target: "/chat")
            client.send(text: "ping")
            #expect(await client.nextText() == "pong")
            client.send(WebSocketStateMachineTests.client(.close, [0x0F, 0xA0]))
            #expect(await client.closeCode() == 4000)
            // The closed event's members are sorted, `sent` last.
            let events = await feed.read(until: #""sent":1}"#)
            #expect(events.contains("event: opened\ndata: {"))
            #expect(events.contains(#""message":"ping""#) && events.contains(#""message":"pong""#))
            #expect(events.contains(#"event: closed\#ndata: {"by":"client","channel":{"#))
            #expect(events.contains(#""code":4000,"reason":"","received":1,"sent":1}"#))
            feed.close()
            #expect(http.server.webSockets.activity.subscriberCount == 1)
        }
    }
}
