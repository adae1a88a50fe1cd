import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

@testable import DecoyServer

/// WireMock's message stub mappings in a stubs folder's `message-mappings/`: WireMock's own
/// examples (`src/test/resources/message-stub-test/`), a YAML one, and mappings Decoy refuses by
/// name while the others serve.
@Suite("Message stub files")
struct MessageStubFileTests {
    /// The folder, as files: WireMock's `single.json` and `multi.json` verbatim.
    static let files: [String: String] = [
        "mappings/plain.json": #"""
        { "request": { "method": "GET", "url": "/plain" }, "response": { "status": 200, "body": "plain" } }
        """#,
        "message-mappings/multi.json": #"""
        {
          "messageMappings": [
            {
              "name": "Multi message stub 1",
              "id": "22222222-2222-2222-2222-222222222222",
              "trigger": {
                "channel": {
                  "initiatingRequestPattern": {
                    "urlPath": "/ws/multi/1"
                  },
                  "type": "websocket"
                },
                "type": "message",
                "message": {
                  "body": {
                    "equalTo": "Hello multi stub 1"
                  }
                }
              },
              "actions": [
                {
                  "channelTarget": {
                    "type": "originating"
                  },
                  "type": "send",
                  "message": {
                    "body": {
                      "data": "Hello from multi stub 1"
                    }
                  }
                }
              ]
            },
            {
              "name": "Multi message stub 2",
              "trigger": {
                "channel": {
                  "initiatingRequestPattern": {
                    "urlPath": "/ws/multi/2"
                  },
                  "type": "websocket"
                },
                "type": "message"
              },
              "actions": [
                {
                  "channelTarget": {
                    "requestPattern": {
                      "urlPath": "/ws/multi/2"
                    },
                    "channelType": "websocket",
                    "type": "request-initiated"
                  },
                  "type": "send",
                  "message": {
                    "body": {
                      "data": "Hello from multi stub 2"
                    }
                  }
                }
              ]
            },
            {
              "name": "Multi message stub 3",
              "trigger": {
                "channel": {
                  "initiatingRequestPattern": {
                    "urlPath": "/ws/multi/3"
                  },
                  "type": "websocket"
                },
                "type": "message"
              },
              "actions": [
                {
                  "channelTarget": {
                    "type": "originating"
                  },
                  "type": "send",
                  "message": {
                    "body": {
                      "data": "Hello from multi stub 3"
                    }
                  }
                }
              ]
            }
          ]
        }
        """#,
        "message-mappings/prices.yaml": #"""
        # A message stub in YAML, as Decoy's other stub files may be.
        name: Price feed
        priority: 1
        metadata:
          team: markets
        trigger:
          type: message
          channel:
            type: websocket
            initiatingRequestPattern:
              urlPath: /prices
              headers:
                X-Client:
                  equalTo: test
          message:
            body:
              matchesJsonPath: "$.subscribe"
        actions:
          - type: send
            message:
              body:
                data: '{"subscribed": {{jsonPath message.body ''$.subscribe''}}}'
          - type: send
            message:
              body:
                data: AAEC
                isBinary: true
        """#,
        "message-mappings/refused.json": #"""
        {
          "messageMappings": [
            {
              "name": "On an HTTP stub",
              "trigger": { "type": "http-stub", "stubId": "7a0d4b4e-2f0f-4a6b-9a57-4b1e0a2f4c11" },
              "actions": [{ "type": "send", "message": { "body": { "data": "hi" } } }]
            },
            {
              "name": "With parameters",
              "trigger": {
                "type": "message",
                "channel": { "type": "websocket", "initiatingRequestPattern": { "urlPath": "/params" } }
              },
              "actions": [
                { "type": "send", "message": { "body": { "data": "ok" } }, "transformerParameters": { "a": 1 } }
              ]
            }
          ]
        }
        """#,
        "mappings/trigger-event.json": #"""
        {
          "id": "11111111-2222-3333-4444-555555555555",
          "request": { "method": "GET", "urlPath": "/api/trigger-event" },
          "response": { "status": 200, "body": "OK" }
        }
        """#,
        // WireMock's WebsocketHttpTriggerAcceptanceTest, as files.
        "message-mappings/http.json": #"""
        {
          "messageMappings": [
            {
              "name": "HTTP stub triggered message",
              "trigger": { "type": "http-stub", "stubId": "11111111-2222-3333-4444-555555555555" },
              "actions": [
                {
                  "type": "send",
                  "message": { "body": { "data": "event triggered" } },
                  "channelTarget": { "type": "request-initiated", "requestPattern": { "urlPath": "/ws-events" } }
                }
              ]
            },
            {
              "name": "HTTP request pattern triggered message",
              "trigger": { "type": "http-request", "requestPattern": { "urlPathPattern": "/api/notify/.*" } },
              "actions": [
                {
                  "type": "send",
                  "message": { "body": { "data": "notified {{request.pathSegments.[2]}}" } },
                  "channelTarget": {
                    "type": "request-initiated", "channelType": "websocket",
                    "requestPattern": { "urlPath": "/ws-notifications" }
                  }
                }
              ]
            }
          ]
        }
        """#,
        "message-mappings/single.json": #"""
        {
          "name": "Single message stub",
          "id": "11111111-1111-1111-1111-111111111111",
          "trigger": {
            "channel": {
              "initiatingRequestPattern": {
                "urlPath": "/ws/single"
              },
              "type": "websocket"
            },
            "type": "message"
          },
          "actions": [
            {
              "channelTarget": {
                "type": "originating"
              },
              "type": "send",
              "message": {
                "body": {
                  "data": "Hello from single stub"
                }
              }
            }
          ]
        }
        """#,
    ]

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-messages-\(UUID().uuidString)")
        for (path, text) in files {
            let url = folder.appending(path: path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    @Test func aFolderLoadsWhatItCanAndRefusesTheRestByName() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        let report = try registry.load(folder: folder)
        #expect(report.stubs.count == 2, "mappings/ serves as before")
        #expect(report.messageStubCount == 8)
        #expect(registry.registeredMessageStubs.map(\.name).contains("Multi message stub 2"))
        let refused = report.refused.map { "\($0.file):\($0.line): \($0.errors.map(\.field))" }
        #expect(refused == ["message-mappings/refused.json:3: [\"messageMappings[0].actions[0]\"]"])
        #expect(report.refused.first?.errors.first?.message.contains("no originating channel") == true)
        #expect(report.warnings.map(\.field) == ["messageMappings[1].actions[0].transformerParameters"])
    }

    @Test func wireMocksExamplesAnswerOverTheServer() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        _ = try registry.load(folder: folder)
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let single = try await WebSocketTestClient.open(port: server.port, target: "/ws/single")
        single.send(text: "anything")
        #expect(await single.nextText() == "Hello from single stub")
        let multi = try await WebSocketTestClient.open(port: server.port, target: "/ws/multi/1")
        multi.send(text: "not the one")
        multi.send(text: "Hello multi stub 1")
        #expect(await multi.nextText() == "Hello from multi stub 1")
        let prices = try await WebSocketTestClient.open(
            port: server.port, target: "/prices?feed=1", fields: "X-Client: test\r\n")
        prices.send(text: #"{"subscribe": "ACME"}"#)
        #expect(await prices.nextText() == #"{"subscribed": ACME}"#)
        let binary = await prices.nextFrame()
        #expect(binary?.opcode == 2)
        #expect(binary?.payload == [0, 1, 2])
    }

    @Test(arguments: [
        #"{"type": "http-stub", "stubId": "11111111-2222-3333-4444-555555555555"}"#,
        #"{"type": "http-request", "requestPattern": {"method": "POST", "urlPath": "/orders"}}"#,
    ])
    func aTriggerOnHTTPTrafficGoesBackOutAsItCameIn(_ trigger: String) throws {
        let target = #"{"type": "request-initiated", "requestPattern": {"urlPath": "/events"}}"#
        let mapping =
            #"{"trigger": \#(trigger), "actions": [{"type": "send", "channelTarget": \#(target),"#
            + #" "message": {"body": {"data": "hi"}}}]}"#
        let stub = try MessageStubDocument.stub(Data(mapping.utf8), source: "request").get()
        #expect(stub.trigger.isOnHTTP)
        let again = try MessageStubDocument.stub(Data(stub.document.json.utf8), source: "again").get()
        #expect(again.trigger == stub.trigger)
        #expect(again.actions == stub.actions)
    }

    @Test func decoysOwnTriggerAndActionsAreReadAndWrittenBack() throws {
        let mapping = #"""
            {
              "trigger": {
                "type": "connect", "channel": { "initiatingRequestPattern": { "method": "GET", "urlPath": "/ticks" } }
              },
              "actions": [
                { "message": { "body": { "data": "hello" } } },
                { "message": { "body": { "data": "tick" } }, "delayMilliseconds": 250 },
                {
                  "type": "close", "code": 4000, "reason": "done",
                  "delayDistribution": { "type": "uniform", "lower": 10, "upper": 20 }
                },
                { "type": "fault", "fault": "INTERNAL_ERROR" }
              ]
            }
            """#
        let stub = try MessageStubDocument.stub(Data(mapping.utf8), source: "request").get()
        // A route read from a file differs from `.get` in how its path was written, not in what it matches.
        #expect("\(stub.trigger)" == "\(MessageTrigger.connect(channel: .get("/ticks")))")
        let expected: [MessageAction] = [
            .send(.text("hello"), templated: true),
            .send(.text("tick"), templated: true, delay: .fixed(.milliseconds(250))),
            MessageAction(
                .close(code: 4000, reason: "done"), templated: true,
                delay: .uniform(Duration.milliseconds(10)...Duration.milliseconds(20))),
            MessageAction(.fault(.internalError), templated: true),
        ]
        #expect(stub.actions == expected)
        let again = try MessageStubDocument.stub(Data(stub.document.json.utf8), source: "again").get()
        #expect(again.trigger == stub.trigger)
        #expect(again.actions == stub.actions)
    }

    @Test(arguments: [
        (#"{"type": "close", "code": 1005}"#, "actions[0].code"),
        (#"{"type": "close", "message": {"body": {"data": "x"}}}"#, "actions[0].message"),
        (#"{"type": "fault", "fault": "EXPLODE"}"#, "actions[0].fault"),
        (#"{"type": "fault"}"#, "actions[0]"),
        (
            #"{"type": "send", "message": {"body": {"data": "x"}}, "delayMilliseconds": -1}"#,
            "actions[0].delayMilliseconds"
        ),
    ])
    func anActionDecoyCannotServeIsRefusedAtItsField(_ action: String, _ field: String) {
        let mapping = #"{"trigger": {"type": "connect"}, "actions": [\#(action)]}"#
        guard case .failure(.invalidStubFiles(let errors)) = MessageStubDocument.stub(Data(mapping.utf8), source: "r")
        else {
            Issue.record("\(action) was taken")
            return
        }
        #expect(errors.map(\.field).contains(field), "\(errors)")
    }

    @Test func httpTrafficSetsOffTheMessageStubsItTriggers() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        _ = try registry.load(folder: folder)
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let events = try await WebSocketTestClient.open(to: server, target: "/ws-events")
        let notifications = try await WebSocketTestClient.open(to: server, target: "/ws-notifications")
        try await WebSocketTestClient.http("GET", "/api/trigger-event", to: server)
        #expect(await events.nextText() == "event triggered")
        // No HTTP stub answers it: its 404 sets the trigger off all the same, as in WireMock.
        #expect(try await WebSocketTestClient.http("GET", "/api/notify/user123", to: server).hasPrefix("HTTP/1.1 404"))
        #expect(await notifications.nextText() == "notified user123")
        let sent = server.webSockets.journal.events.filter { $0.kind == .sent }
        #expect(sent.map(\.message) == [.text("event triggered"), .text("notified user123")])
    }
}
