// swift-format-ignore-file
// The examples of docs/openapi.md, each in the test that runs it. `Client` is the client
// swift-openapi-generator made from Specs/users.yaml (under Generated/).
import Clocks
import Decoy
import DecoyClient
import DecoyOpenAPI
import DecoyServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks every request for one of the document's responses or examples, as Prism reads `Prefer`.
struct Prefer: ClientMiddleware {
    let value: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[HTTPField.Name("Prefer")!] = value
        return try await next(request, body, baseURL)
    }
}

@Suite("docs/openapi.md")
struct OpenAPIExamples {
    let specURL = Specs.url("users.yaml")

    @Test func stubsByOperationIdAnswerTheGeneratedClientInProcess() async throws {
        let spec = try OpenAPISpec(contentsOf: specURL)
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 7, "name": "Barbara"}"#), forOperation: "getUser", in: spec)
        let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))

        let user = try await client.getUser(path: .init(id: 7)).ok.body.json
        #expect(user.name == "Barbara")
        try registry.verify(.get("/users/7"), count: .exactly(1))
    }

    @Test func faultsAndDelaysAreStubTransports() async throws {
        let spec = try OpenAPISpec(contentsOf: specURL)
        let registry = StubRegistry(clock: TestClock())
        let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))

        try registry.register(StubResponse.fault(.connectionReset), forOperation: "listUsers", in: spec)
        await #expect(throws: ClientError.self) { try await client.listUsers() }
        #expect(registry.journal.totalCount == 1)
    }

    @Test func theSameStubsOverAMockServer() async throws {
        let spec = try OpenAPISpec(contentsOf: specURL)
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), forOperation: "listUsers", in: spec)

        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        let client = Client(serverURL: server.baseURL, transport: URLSessionTransport())
        #expect(try await client.listUsers().ok.body.json == [])
    }

    @Test func aServerURLWithAPath() async throws {
        let spec = try OpenAPISpec(contentsOf: specURL, basePath: "/v1")
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), forOperation: "listUsers", in: spec)
        let client = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: StubTransport(registry))
        #expect(try await client.listUsers().ok.body.json == [])
    }

    @Test func theDocumentsExamples() async throws {
        let spec = try OpenAPISpec(contentsOf: specURL)
        let registry = StubRegistry()
        try registry.registerExamples(of: spec)
        try registry.register(StubResponse(json: #"{"id": 2, "name": "Grace"}"#), for: .get("/users/2"))

        let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        #expect(try await client.getUser(path: .init(id: 1)).ok.body.json.name == "Ada")
        #expect(try await client.getUser(path: .init(id: 2)).ok.body.json.name == "Grace")

        let asking404 = Client(serverURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry), middlewares: [Prefer(value: "code=404")])
        #expect(try await asking404.getUser(path: .init(id: 1)).notFound.body.json.message == "no such user")
    }
}
