// swift-format-ignore-file
// The examples of docs/client.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Logging
import Testing
import FoundationNetworking

struct Order: Codable, Sendable, Equatable { let id: Int; let sku: String; let quantity: Int }
struct NewOrder: Codable, Sendable { let sku: String; let quantity: Int }
struct APIProblem: Codable, Sendable { let message: String }

extension Resource where Value == [Order] {
    static func orders(page: Int) -> Resource { .get("/orders", query: ["page": "\(page)"]) }
}

extension Resource where Value == Order {
    static func place(_ order: NewOrder) -> Resource { .post("/orders", body: order) }
}

extension Resource where Value == Void {
    static func cancel(orderID: Int) -> Resource { .delete("/orders/\(orderID)") }
}

struct RecordingTransport: Transport {
    let base: any Transport
    let log: @Sendable (HTTPRequest) -> Void

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        log(request)
        return try await base.send(request, body: body)
    }

    func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        log(request)
        return try await base.stream(request, body: body)
    }
}

@Suite("The client, as documented")
struct ClientExamples {
    /// The documented configuration, over a stub registry standing in for the API.
    static func documentedClient(_ registry: StubRegistry, token: String = "t0k3n") -> APIClient {
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com/v2")!,
            configuration: .init(
                headerFields: [.authorization: "Bearer \(token)", .accept: "application/json"],
                queryItems: [URLQueryItem(name: "locale", value: "en")],
                timeout: .seconds(20),
                errorBodyType: APIProblem.self,
                logger: Logger(label: "app.api")
            )
        )
        return APIClient(baseURL: client.baseURL, configuration: client.configuration, transport: StubTransport(registry))
    }

    @Test func redirectsAndCookies() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .seeOther, headerFields: [.location: "/me", .setCookie: "session=abc; Path=/"]), for: .post("/login"))
        try registry.register(ClosureStub { StubResponse(text: $0.headerFields[.cookie] ?? "none") }, for: .get("/me"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))

        #expect(try await client.send(Resource<String>.post("/login", body: ["user": "ada"])) == "session=abc")
        #expect(client.cookieStorage?.cookies?.map(\.name) == ["session"])
    }

    static func ordersRegistry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"[{"id": 9, "sku": "B-2", "quantity": 1}]"#), for: Route.get("/v2/orders").query("locale", .equalTo("en")))
        try registry.register(ConditionalStub(
            when: { $0.bodyText.contains(#""sku":"""#) },
            then: StubResponse(status: .unprocessableContent, json: #"{"message": "sku is required"}"#),
            else: StubResponse(status: .created, headerFields: [.location: "/orders/10"], json: #"{"id": 10, "sku": "A-1", "quantity": 2}"#)
        ), for: .post("/v2/orders"))
        try registry.register(StubResponse(status: .noContent), for: .delete("/v2/orders/{id}"))
        return registry
    }

    @Test func sending() async throws {
        let registry = try Self.ordersRegistry()
        let client = Self.documentedClient(registry)
        let orders = try await client.send(.orders(page: 1))
        let placed = try await client.response(for: .place(NewOrder(sku: "A-1", quantity: 2)))
        #expect(placed.status == .created)
        #expect(placed.headerFields[.location] == "/orders/10")
        try await client.send(.cancel(orderID: placed.value.id))

        #expect(orders == [Order(id: 9, sku: "B-2", quantity: 1)])
        try registry.verify(Route.get("/v2/orders").header(.authorization, .equalTo("Bearer t0k3n")), count: .once)
        try registry.verify(.delete("/v2/orders/10"), count: .once)
    }

    @Test func completionHandler() async throws {
        let client = Self.documentedClient(try Self.ordersRegistry())
        let delivered = Mutex<[Order]?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            @Sendable func show(_ orders: [Order]) { delivered.withLock { $0 = orders }; done.resume() }
            @Sendable func report(_ error: APIError) { Issue.record("\(error)"); done.resume() }
            client.send(.orders(page: 2)) { result in
                switch result {
                case .success(let orders): show(orders)
                case .failure(let error): report(error)
                }
            }
        }
        #expect(delivered.withLock { $0 }?.count == 1)
    }

    @Test func rootKeys() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"data": {"people": [{"id": 1, "name": "Ada"}]}, "meta": {"page": 1}}"#), for: .get("/people"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        // {"data": {"people": [{"id": 1, "name": "Ada"}]}, "meta": {"page": 1}}
        let people = try await client.send(Resource<[User]>.get("/people").rootKeys("data", "people"))
        #expect(people == [User(id: 1, name: "Ada")])
    }

    @Test func customDecoding() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "a,b,c"), for: .get("/export.csv"))
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        let csv = Resource<[String]>.get("/export.csv").decoded { data, _ in
            String(decoding: data, as: UTF8.self).split(separator: ",").map(String.init)
        }
        #expect(try await client.send(csv) == ["a", "b", "c"])
    }

    @Test func errors() async throws {
        let registry = try Self.ordersRegistry()
        let client = Self.documentedClient(registry)
        do {
            _ = try await client.send(.place(NewOrder(sku: "", quantity: 0)))
        } catch .unacceptableStatus(let response) {
            let problem = response.value as? APIProblem
            #expect(response.status == .unprocessableContent)
            #expect(problem?.message == "sku is required")
        } catch .decoding(let failure) {
            print("bad body at \(failure.codingPath):", String(decoding: failure.body, as: UTF8.self))
        } catch .transport(.timedOut, _) {
            print("too slow")
        } catch {
            print("other failure: \(error)")
        }
        // The stub answered 422, which the client never accepts: the first branch ran.
        #expect(registry.journal.entries.map(\.status) == [.unprocessableContent])
    }

    @Test func pipeline() async throws {
        let token = "t0k3n"
        let mocks = StubRegistry()
        try mocks.register(StubResponse(json: #"{"beta": true}"#), for: .get("/flags"))
        let live = StubRegistry()
        try live.register(SequenceStub(first: [StubResponse(status: .serviceUnavailable)], then: StubResponse(json: "[]")), for: .get("/orders"))
        try live.register(StubResponse(status: .forbidden), for: .get("/admin"))
        let transport = StubTransport(live)
        let client = APIClient(
            baseURL: URL(string: "https://api.example.com")!,
            configuration: .init(
                redaction: LogRedaction(parameters: ["otp"]),   // with password, access_token, refresh_token, …
                interceptors: [
                    RequestAdapter { request, _ in request.headerFields[.authorization] = "Bearer \(token)" },
                    mocks.interceptor,
                ],
                retry: RetryPolicy(maxAttempts: 3, wait: .milliseconds(100), multiplier: 2, maximumWait: .seconds(2))
            ),
            transport: transport
        )
        let failures = client.failures()

        #expect(try await client.send(Resource<[String: Bool]>.get("/flags")) == ["beta": true])
        #expect(try await client.send(Resource<[Order]>.get("/orders")) == [])
        #expect(live.journal.totalCount == 2, "503, then retried")
        try live.verify(Route.get("/orders").header(.authorization, .equalTo("Bearer t0k3n")), count: .exactly(2))
        _ = try? await client.send(Resource<Void>.get("/admin"))
        var iterator = failures.makeAsyncIterator()
        guard case .unacceptableStatus(let refused) = await iterator.next()?.error else {
            Issue.record("expected the 403"); return
        }
        #expect(refused.status == .forbidden)
    }

    @Test func customTransport() async throws {
        let registry = try Self.ordersRegistry()
        let seen = Mutex<[String]>([])
        let transport = RecordingTransport(base: StubTransport(registry)) { request in seen.withLock { $0.append(request.path ?? "") } }
        let client = APIClient(baseURL: URL(string: "https://api.example.com/v2")!, configuration: .init(queryItems: [URLQueryItem(name: "locale", value: "en")]), transport: transport)
        _ = try await client.send(.orders(page: 3))
        #expect(seen.withLock { $0 } == ["/v2/orders?locale=en&page=3"])
    }
}
