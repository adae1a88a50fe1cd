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
            StubRecording.Exchange(request: StubRequest(method: .get, target: "/poll"), response: StubResponse(body: Data(text.utf8)))
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
}
