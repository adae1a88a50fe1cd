import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import Foundation
import HTTPTypes
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Webhooks over the network: a stub added through one server's admin API sends its webhook,
/// through the default `URLSessionTransport`, to a second server on loopback.
@Suite("MockServer: webhooks")
struct WebhookServerTests {
    static func send(_ method: String, _ url: URL, _ body: String? = nil) async throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        // A session of its own: a shared one could reuse a connection to another test's server.
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func aWebhookAddedThroughTheAdminAPIReachesAnotherServer() async throws {
        let receiver = StubRegistry()
        try receiver.register(StubResponse(status: .noContent), for: .post("/callbacks/{id}"))
        try await withMockServer(registry: receiver) { receiving in
            try await withMockServer(registry: StubRegistry()) { serving in
                let mapping = """
                    {"request": {"method": "POST", "urlPathTemplate": "/orders/{id}"}, "response": {"status": 202},
                     "postServeActions": [{"name": "webhook", "parameters": {
                       "method": "POST",
                       "url": "\(receiving.baseURL.absoluteString)/callbacks/{{originalRequest.path.[1]}}",
                       "headers": {"X-Sku": "{{jsonPath originalRequest.body '$.sku'}}"},
                       "body": "order {{originalRequest.path.[1]}} placed"}}]}
                    """
                let added = try await Self.send("POST", serving.baseURL.appending(path: "__admin/mappings"), mapping)
                #expect(added.0 == 201, "\(added.1)")
                let refused = try await Self.send(
                    "POST", serving.baseURL.appending(path: "__admin/mappings"),
                    mapping.replacingOccurrences(of: receiving.baseURL.absoluteString, with: "http://example.com"))
                #expect(refused.0 == 422)
                #expect(refused.1.contains(#"\"example.com\" is neither"#), "\(refused.1)")
                let listed = try await Self.send("GET", serving.baseURL.appending(path: "__admin/mappings"))
                #expect(listed.1.contains("postServeActions"))

                let answer = try await Self.send(
                    "POST", serving.baseURL.appending(path: "orders/o-9"), #"{"sku": "lamp"}"#)
                #expect(answer.0 == 202)
                var arrived: [JournalEntry] = []
                for _ in 0..<2_000 where arrived.isEmpty {
                    arrived = receiver.journal.entries
                    try await Task.sleep(for: .milliseconds(1))
                }
                let sent = try #require(arrived.first).request
                #expect(sent.method == .post)
                #expect(sent.target == "/callbacks/o-9")
                #expect(sent.headerFields[HTTPField.Name("X-Sku")!] == "lamp")
                #expect(sent.bodyText == "order o-9 placed")
            }
        }
    }

    @Test func aFailingWebhookIsLoggedAndTheAnswerStands() async throws {
        let lines = RequestLogTests.Lines()
        let registry = StubRegistry()
        // Nothing listens on port 1 of loopback: the connection is refused.
        try registry.register(
            StubResponse(text: "fine"), for: Route.get("/fire").webhook(try Webhook(.post, url: "http://127.0.0.1:1/x"))
        )
        try await withMockServer(registry: registry, configuration: .init(logger: lines.logger)) { server in
            let answer = try await Self.send("GET", server.baseURL.appending(path: "fire"))
            #expect(answer == (200, "fine"))
            var logged: [String] = []
            for _ in 0..<5_000 where logged.isEmpty {
                logged = lines.lines.withLock { $0.filter { $0.level == .error }.map(\.text) }
                try await Task.sleep(for: .milliseconds(1))
            }
            #expect(logged.count == 1)
            #expect(
                logged.first?.hasPrefix("Webhook POST http://127.0.0.1:1/x for GET /fire failed") == true, "\(logged)")
        }
    }
}
