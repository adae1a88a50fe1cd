// swift-format-ignore-file
// What docs/recording.md shows of a recording, checked: the scenario a repeated request becomes.
import Decoy
import DecoyStubFiles
import Foundation
import Testing
import HTTPTypes

@Suite("Recording, as documented")
struct RecordingExamples {
    @Test func repeatsWithDifferentAnswersBecomeAScenario() throws {
        let exchanges = ["pending", "pending", "done"].map { text in
            StubRecording.Proxied(request: StubRequest(method: .get, target: "/poll"), response: StubResponse(body: Data(text.utf8)))
        }
        let mappings = StubRecording().mappings(from: exchanges)
        #expect(mappings.map { $0.document["name"] } == Array(repeating: .string("get-poll"), count: 3))
        #expect(mappings.map { $0.document["scenarioName"] } == Array(repeating: .string("scenario-1-get-poll"), count: 3))
        #expect(mappings.map { $0.document["requiredScenarioState"] } == [.string("Started"), .string("scenario-1-get-poll-2"), .string("scenario-1-get-poll-3")])
        #expect(mappings.map { $0.document["newScenarioState"] } == [.string("scenario-1-get-poll-2"), .string("scenario-1-get-poll-3"), nil])
        #expect(mappings[0].document["request"] == .object(["method": .string("GET"), "url": .string("/poll")]))
        #expect(mappings[0].document["response"] == .object(["status": .number(200), "body": .string("pending")]))
        // The document in docs/recording.md loads as it is.
        let registry = StubRegistry()
        try registry.addMapping(Data("""
            { "name": "get-poll", "scenarioName": "scenario-1-get-poll",
              "requiredScenarioState": "Started", "newScenarioState": "scenario-1-get-poll-2",
              "request": { "method": "GET", "url": "/poll" },
              "response": { "status": 200, "body": "pending" } }
            """.utf8))
    }

    @Test func aRecordedEventStreamAsDocumentedReplaysItsEvents() async throws {
        let registry = StubRegistry()
        try registry.addMapping(Data("""
            { "name": "post-v1-chat",
              "request": { "method": "POST", "url": "/v1/chat" },
              "response": { "status": 200,
                "headers": { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" },
                "events": [
                  { "id": "1", "event": "delta", "data": { "text": "Hel" }, "retry": 3000, "delayMilliseconds": 0 },
                  { "id": "2", "event": "delta", "data": { "text": "lo" }, "delayMilliseconds": 121 },
                  { "event": "done", "data": "[DONE]", "delayMilliseconds": 60 } ] } }
            """.utf8))
        let request = HTTPRequest(method: .post, scheme: "https", authority: "api.test", path: "/v1/chat")
        let (_, body) = try await StubTransport(registry).send(request, body: nil)
        #expect(String(decoding: body, as: UTF8.self) == """
            id: 1\nevent: delta\nretry: 3000\ndata: {"text":"Hel"}\n\n\
            id: 2\nevent: delta\ndata: {"text":"lo"}\n\n\
            event: done\ndata: [DONE]\n\n
            """)
    }
}
