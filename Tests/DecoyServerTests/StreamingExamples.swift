// swift-format-ignore-file
// The examples of docs/streaming.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct ChatChunk: Codable, Sendable {
    struct Choice: Codable, Sendable {
        struct Delta: Codable, Sendable { let content: String }
        let delta: Delta
    }
    let choices: [Choice]
}

@Suite("Event streams, as documented")
struct StreamingExamples {
    @Test func aChatCompletionStreamed() async throws {
        let registry = StubRegistry()
        let chunks = try ["Hel", "lo", "!"].map { piece in
            try ServerEvent(json: ChatChunk(choices: [.init(delta: .init(content: piece))]), delay: .fixed(.milliseconds(30)))
        }
        try registry.register(
            EventStreamStub(events: chunks + [ServerEvent(data: "[DONE]")]),
            for: .post("/v1/chat/completions"))

        let reader = IncrementalReader()
        let session = URLSession.stubbed(by: registry, delegate: reader)
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/chat/completions")!)
        request.httpMethod = "POST"
        session.dataTask(with: request).resume()
        defer { session.invalidateAndCancel() }

        await reader.wait { $0.ending != nil }
        #expect(reader.text == """
            data: {"choices":[{"delta":{"content":"Hel"}}]}

            data: {"choices":[{"delta":{"content":"lo"}}]}

            data: {"choices":[{"delta":{"content":"!"}}]}

            data: [DONE]


            """)
    }

    @Test func eventsAndEndings() async throws {
        let registry = StubRegistry()
        let ticks = try EventStreamStub(
            events: [
                ServerEvent(id: "1", event: "score", data: "1-0", delay: .uniform(.milliseconds(100)...(.milliseconds(500)))),
                ServerEvent(comment: "keep-alive", delay: .fixed(.seconds(1))),
            ],
            then: .stayOpen, repeats: .forever)
        try registry.register(ticks, for: .get("/scores/live"))

        let failing = try EventStreamStub(
            events: (1...3).map { ServerEvent(id: "\($0)", data: "update \($0)", delay: .fixed(.milliseconds(50))) },
            then: .fault(.connectionReset))
        try registry.register(failing, for: .get("/updates"))

        try registry.register(
            SequenceStub(first: [StubResponse(status: .serviceUnavailable)], then: failing),
            for: .get("/flaky-updates"))
        try registry.register(
            EventStreamStub(events: [ServerEvent(id: "4", data: "update 4")]),
            for: .get("/updates").header(HTTPField.Name("Last-Event-ID")!, .equalTo("3")))

        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        await #expect(throws: APIError.self) { try await client.send(Resource<String>.get("/updates")) }
        await #expect(throws: APIError.self) { try await client.send(Resource<String>.get("/flaky-updates")) }
        await #expect(throws: APIError.self) { try await client.send(Resource<String>.get("/flaky-updates")) }
        let resumed = try await client.send(Resource<String>.get("/updates").header(HTTPField.Name("Last-Event-ID")!, "3"))
        #expect(resumed == "id: 4\ndata: update 4\n\n")
    }
}
