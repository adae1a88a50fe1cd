import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite("One merge rule for the client's query items and header fields; redaction that only adds")
struct DefaultsTests {
    static let base = URL(string: "https://api.test")!

    static func client(_ registry: StubRegistry) -> APIClient {
        APIClient(
            baseURL: base,
            configuration: .init(
                headerFields: [.acceptLanguage: "en", .init("X-Tag")!: "a"],
                queryItems: [URLQueryItem(name: "locale", value: "en"), URLQueryItem(name: "tag", value: "a")]),
            transport: StubTransport(registry))
    }

    @Test func aResourcesItemReplacesTheClientsOfTheSameName() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .noContent), for: .get("/orders"))
        try await Self.client(registry).send(
            Resource<Void>.get("/orders", query: ["locale": "fr"]).header(.acceptLanguage, "fr"))
        let request = try #require(registry.journal.entries.first?.request)
        #expect(request.target == "/orders?tag=a&locale=fr")
        #expect(request.headerFields[values: .acceptLanguage] == ["fr"])
    }

    @Test func appendingIsAnExplicitChoice() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .noContent), for: .get("/orders"))
        try await Self.client(registry).send(
            Resource<Void>.get("/orders", query: ["tag": "b"]).header(.init("X-Tag")!, "b").appendingToDefaults())
        let request = try #require(registry.journal.entries.first?.request)
        #expect(request.target == "/orders?locale=en&tag=a&tag=b")
        #expect(request.headerFields[values: .init("X-Tag")!] == ["a", "b"])
    }

    @Test func namesGivenToARedactionJoinTheDefaults() {
        let redaction = LogRedaction(headerFields: [.init("X-Api-Key")!], parameters: ["PIN"])
        #expect(redaction.parameters.isSuperset(of: LogRedaction.defaultParameters))
        #expect(redaction.parameters.contains("pin"))
        #expect(redaction.headerFields.isSuperset(of: LogRedaction.defaultHeaderFields))
        #expect(redaction.headerFields.contains(.init("X-Api-Key")!))
    }

    @Test func droppingADefaultTakesAnExplicitCall() {
        let redaction = LogRedaction().revealing(headerFields: [.cookie], parameters: ["Token"])
        #expect(!redaction.parameters.contains("token"))
        #expect(redaction.parameters.contains("access_token"))
        #expect(!redaction.headerFields.contains(.cookie))
        #expect(redaction.headerFields.contains(.authorization))
    }

    /// The redaction of the docs' logging example, on every place a secret travels.
    @Test func theDocsRedactionExampleLogsNoSecret() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(
                headerFields: [.setCookie: "session=c00kie"],
                json: #"{"access_token": "acc3ss", "refresh_token": "r3fresh", "id_token": "id3nt", "token": "t0ken"}"#),
            for: .post("/oauth/token"))
        let log = LogCapture()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let client = APIClient(
            baseURL: Self.base,
            configuration: .init(logger: logger, redaction: LogRedaction(parameters: ["otp"])),
            transport: StubTransport(registry))
        try await client.send(
            Resource<Void>.post(
                "/oauth/token", body: ["refresh_token": "r3fresh", "client_secret": "cl1ent", "otp": "123456"]
            )
            .query {
                URLQueryItem(name: "access_token", value: "acc3ss"); URLQueryItem(name: "api_key", value: "k3y")
            }
            .header(.authorization, "Basic czNjcjN0"))
        let text = log.text
        #expect(text.contains("→ POST /oauth/token"))
        for secret in ["acc3ss", "r3fresh", "id3nt", "t0ken", "c00kie", "cl1ent", "123456", "k3y", "czNjcjN0"] {
            #expect(!text.contains(secret), "\(secret) leaked into the log")
        }
    }
}
