// swift-format-ignore-file
// The examples of docs/proxying.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyStubFiles
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("Proxying, as documented")
struct ProxyingExamples {
    @Test func proxyTheRest() async throws {
        let registry = StubRegistry()
        let upstream = URL(string: "http://127.0.0.1:8081")!
        try registry.register(ProxyStub(to: upstream), for: Route(method: nil, path: "/**", priority: 10))
        try registry.register(StubResponse(json: #"{"id": 1, "name": "stubbed"}"#), for: .get("/users/1"))
        let answer = try await registry.engine.answer(StubRequest(method: .get, target: "/users/1"))
        #expect(String(decoding: answer.body, as: UTF8.self).contains("stubbed"))
    }

    @Test func throughAnyTransport() async throws {
        let real = StubRegistry()
        try real.register(StubResponse(text: "from the real API"), for: .get("/status"))
        let registry = StubRegistry()
        try registry.register(ProxyStub(to: URL(string: "https://api.example.com")!, transport: StubTransport(real)), for: .any("/**"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        let status = try await client.send(Resource<String>.get("/status"))
        #expect(status == "from the real API")
        #expect(real.journal.entries.count == 1 && registry.journal.entries.count == 1)
    }

    @Test func whatIsSentOn() throws {
        let registry = StubRegistry()
        let proxy = ProxyStub(
            to: URL(string: "http://127.0.0.1:8081/v2")!,
            additionalRequestHeaders: [.authorization: "Bearer test-token"],
            removingRequestHeaders: [.cookie],
            urlPrefixToRemove: "/api",
            responseHeaders: [HTTPField.Name("X-Proxied")!: "true"],
            delay: .fixed(.milliseconds(50))
        )
        try registry.register(proxy, for: .any("/api/**"))
        #expect(proxy.upstreamURL(for: StubRequest(method: .get, target: "/api/users?page=2"))?.absoluteString == "http://127.0.0.1:8081/v2/users?page=2")
    }

    @Test func inStubFiles() throws {
        let registry = StubRegistry()
        let mapping = try registry.addMapping(Data("""
            {
              "priority": 10,
              "request": { "method": "ANY", "urlPattern": "/.*" },
              "response": {
                "proxyBaseUrl": "http://127.0.0.1:8081",
                "additionalProxyRequestHeaders": { "Authorization": "Bearer test-token" },
                "removeProxyRequestHeaders": ["cookie"],
                "proxyUrlPrefixToRemove": "/api",
                "headers": { "X-Proxied": "true" },
                "fixedDelayMilliseconds": 50
              }
            }
            """.utf8))
        #expect(mapping.route.priority == 10)
    }
}
