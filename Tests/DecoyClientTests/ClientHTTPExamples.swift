// swift-format-ignore-file
// Examples of docs/client.md, verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

private struct Order: Codable, Sendable { let id: Int }
private struct Product: Codable, Sendable { let sku: String }

extension Resource where Value == [Order] {
    fileprivate static func orders(page: Int) -> Resource { .get("/orders", query: ["page": "\(page)"]) }
}

final class SignOutOnUnauthorized: APIClientDelegate {
    let signOut: @Sendable () -> Void
    init(signOut: @escaping @Sendable () -> Void) { self.signOut = signOut }

    func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest) {
        // A wrong password at /login is for the user to retry, not a session that ended.
        guard request.path?.hasPrefix("/login") != true else { return }
        if case .unacceptableStatus(let response) = error, response.status == .unauthorized { signOut() }
    }
}

@Suite("The client's HTTP behaviour, as documented")
struct ClientHTTPExamples {
    let apiURL = URL(string: "https://api.example.com")!

    @Test func oneMergeRule() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), for: .get("/orders"))
        let transport = StubTransport(registry)

        let localized = APIClient(baseURL: apiURL, configuration: .init(queryItems: [URLQueryItem(name: "locale", value: "en")]), transport: transport)
        _ = try await localized.send(Resource<[Order]>.get("/orders", query: ["locale": "fr"]))   // /orders?locale=fr
        _ = try await localized.send(Resource<[Order]>.get("/orders", query: ["locale": "fr"]).appendingToDefaults())   // /orders?locale=en&locale=fr

        #expect(registry.journal.entries.map(\.request.target) == ["/orders?locale=fr", "/orders?locale=en&locale=fr"])
    }

    @Test func completionHandlersRunOffTheMainThread() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"[{"id": 1}]"#), for: .get("/orders"))
        let client = APIClient(baseURL: apiURL, transport: StubTransport(registry))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            @Sendable func render(_ result: Result<[Order], APIError>) {
                #expect((try? result.get())?.count == 1)
                done.resume()
            }
            client.send(.orders(page: 2)) { result in
                DispatchQueue.main.async { render(result) }
            }
        }
        let handlerThread = Mutex<Bool?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            client.send(.orders(page: 2)) { _ in
                handlerThread.withLock { $0 = Thread.isMainThread }
                done.resume()
            }
        }
        #expect(handlerThread.withLock { $0 } == false, "one of Swift's concurrency threads, not the main one")
    }

    @Test func theDelegateHearsOfAnUnauthorizedRequest() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .unauthorized), for: .get("/me"))
        try registry.register(StubResponse(status: .unauthorized), for: .post("/login"))
        let signedOut = Mutex(false)
        let delegate = SignOutOnUnauthorized { signedOut.withLock { $0 = true } }
        let client = APIClient(baseURL: apiURL, configuration: .init(delegate: delegate), transport: StubTransport(registry))
        _ = try? await client.send(Resource<Void>.post("/login"))
        #expect(!signedOut.withLock { $0 }, "a 401 from /login is no reason to sign out")
        _ = try? await client.send(Resource<Void>.get("/me"))
        #expect(signedOut.withLock { $0 })
    }

    @Test func httpCachingOnATestClock() async throws {
        let registry = StubRegistry()
        try registry.register(ClosureStub { request in
            request.headerFields[.ifNoneMatch] == "\"v1\""
                ? StubResponse(status: .notModified, headerFields: [.cacheControl: "max-age=60"])
                : StubResponse(headerFields: [.cacheControl: "max-age=60", .eTag: "\"v1\""], json: #"[{"sku": "A"}]"#)
        }, for: .get("/products"))
        let transport = StubTransport(registry)

        let clock = TestClock()
        let client = APIClient(baseURL: apiURL, configuration: .init(clock: clock, cache: .memory(capacity: 8 * 1024 * 1024, clock: clock)), transport: transport)
        _ = try await client.send(Resource<[Product]>.get("/products"))           // Cache-Control: max-age=60, ETag: "v1"
        await clock.advance(by: .seconds(30))
        let cached = try await client.response(for: Resource<[Product]>.get("/products"))
        #expect(cached.source == .cache)
        await clock.advance(by: .seconds(31))
        let revalidated = try await client.response(for: Resource<[Product]>.get("/products"))   // If-None-Match: "v1" → 304
        #expect(revalidated.source == .revalidated)

        #expect(registry.journal.totalCount == 2)
        #expect(revalidated.value.first?.sku == "A")
    }
}
