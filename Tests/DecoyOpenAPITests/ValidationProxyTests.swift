import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import Foundation
import HTTPTypes
import Logging
import Testing

@testable import DecoyOpenAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The validation proxy: a registry that checks what its proxies bring back against an OpenAPI
/// document flags each real response that breaks it (in the journal, the admin API's serve
/// events and the request log) and passes every response on as the real server sent it.
@Suite("Proxied responses checked against an OpenAPI document")
struct ValidationProxyTests {
    /// Keeps the lines a server logs.
    final class Lines: Sendable {
        let lines = Mutex<[(level: Logger.Level, text: String)]>([])

        var logger: Logger {
            Logger(label: "test") { _ in Handler(lines: self) }
        }

        struct Handler: LogHandler {
            let lines: Lines
            var logLevel = Logger.Level.info
            var metadata: Logger.Metadata = [:]
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                lines.lines.withLock { $0.append((event.level, event.message.description)) }
            }
        }
    }

    static let json: HTTPFields = [.contentType: "application/json"]

    /// A real API that answers some requests as its document says and others not.
    static func realAPI() throws -> StubRegistry {
        let real = StubRegistry()
        try real.register(StubResponse(headerFields: json, json: #"{"id": 1, "name": "Rex"}"#), for: .get("/pets/1"))
        try real.register(StubResponse(headerFields: json, json: #"{"id": "2", "name": "Tom"}"#), for: .get("/pets/2"))
        try real.register(StubResponse(status: HTTPResponse.Status(code: 418)), for: .get("/pets/3"))
        try real.register(StubResponse(headerFields: [.contentType: "text/plain"], text: "Rex"), for: .get("/pets/4"))
        try real.register(StubResponse(text: "up"), for: .get("/health"))
        return real
    }

    @Test func flagsTheResponsesThatBreakTheDocumentAndPassesEveryOneOn() async throws {
        let spec = try OpenAPISpec(data: Data(StubDriftTests.spec.utf8), source: "pets.yaml")
        let lines = Lines()
        try await withMockServer(registry: try Self.realAPI()) { upstream in
            let proxy = StubRegistry()
            try proxy.register(ProxyStub(to: upstream.baseURL), for: Route(method: nil, path: "/**"))
            proxy.proxiedResponseCheck = StubDriftCheck(specs: [spec]).proxiedResponseCheck
            try await withMockServer(registry: proxy, configuration: .init(logger: lines.logger)) { server in
                let session = URLSession(configuration: .ephemeral)
                var bodies: [String] = []
                for path in ["/pets/1", "/pets/2", "/pets/3", "/pets/4", "/health"] {
                    let (data, _) = try await session.data(from: server.baseURL.appending(path: path))
                    bodies.append(String(decoding: data, as: UTF8.self))
                }
                // Passed on as the real API sent them.
                #expect(bodies == [#"{"id": 1, "name": "Rex"}"#, #"{"id": "2", "name": "Tom"}"#, "", "Rex", "up"])

                let drift = proxy.journal.entries.map { $0.response.drift.map { $0.pointer ?? "" } }
                #expect(
                    drift == [
                        [], ["/response/jsonBody/id"], ["/response/status"], ["/response/headers/Content-Type"], [],
                    ])
                let second = try #require(proxy.journal.entries[1].response.drift.first)
                #expect(second.against == "getPet (GET /pets/{id})")
                #expect(second.documentPointer == "pets.yaml#/components/schemas/Pet/properties/id/type")

                // The admin API's serve events carry them, newest first, and leave them out where there are none.
                let (data, _) = try await session.data(from: server.baseURL.appending(path: "/__admin/requests"))
                let page = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                let events = try #require(page?["requests"] as? [[String: Any]])
                let flagged = events.map { ($0["drift"] as? [[String: Any]])?.compactMap { $0["pointer"] as? String } }
                #expect(
                    flagged == [
                        nil, ["/response/headers/Content-Type"], ["/response/status"], ["/response/jsonBody/id"], nil,
                    ])
            }
        }
        let warnings = lines.lines.withLock { $0.filter { $0.level == .warning }.map(\.text) }
        #expect(warnings.count == 3)
        #expect(
            warnings.first
                == """
                GET /pets/2 differs from getPet (GET /pets/{id}): /response/jsonBody/id: expected integer, got "2" \
                (pets.yaml#/components/schemas/Pet/properties/id/type)
                """)
    }

    /// Without a check, nothing is flagged: what proxies bring back is checked only when asked.
    @Test func aRegistryWithoutACheckFlagsNothing() async throws {
        try await withMockServer(registry: try Self.realAPI()) { upstream in
            let proxy = StubRegistry()
            try proxy.register(ProxyStub(to: upstream.baseURL), for: Route(method: nil, path: "/**"))
            try await withMockServer(registry: proxy) { server in
                _ = try await URLSession(configuration: .ephemeral).data(
                    from: server.baseURL.appending(path: "/pets/2"))
                #expect(proxy.journal.entries.map(\.response.drift) == [[]])
            }
        }
    }
}
