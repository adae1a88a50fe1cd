import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What URLSession does around an exchange (redirects, cookies, one value per field name) must
/// come out the same in every serving: through an `APIClient`, and through a plain `URLSession`.
@Suite("Redirects, cookies and repeated fields agree in every serving")
struct SessionParityTests {
    static func stubs() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .found, headerFields: [.location: "/new", .setCookie: "moved=yes; Path=/"]),
            for: .get("/old"))
        try registry.register(
            ClosureStub { StubResponse(text: "new, cookie: \($0.headerFields[.cookie] ?? "none")") }, for: .get("/new"))
        try registry.register(
            StubResponse(headerFields: [.setCookie: "session=abc; Path=/", .setCookie: "theme=dark; Path=/"]),
            for: .post("/login"))
        try registry.register(ClosureStub { StubResponse(text: $0.headerFields[.cookie] ?? "none") }, for: .get("/me"))
        try registry.register(
            StubResponse(
                headerFields: [.init("X-Multi")!: "a", .init("X-Multi")!: "b"], encoding: ["b": 2, "a": 1, "c": 3]),
            for: .get("/multi"))
        return registry
    }

    @Test(arguments: ServingMode.allCases)
    func aClientSeesTheSameInEveryServing(_ serving: ServingMode) async throws {
        let registry = try Self.stubs()
        let client = try serving.client(registry)
        #expect(try await client.send(Resource<String>.get("/old")) == "new, cookie: moved=yes")
        try await client.send(Resource<Void>.post("/login"))
        #expect(try await client.send(Resource<String>.get("/me")) == "moved=yes; session=abc; theme=dark")
        let multi = try await client.response(for: Resource<Void>.get("/multi"))
        #expect(multi.headerFields[values: .init("X-Multi")!] == ["a, b"])
        #expect(String(decoding: multi.body, as: UTF8.self) == #"{"a":1,"b":2,"c":3}"#)
        #expect(registry.journal.entries.map(\.request.target) == ["/old", "/new", "/login", "/me", "/multi"])
        let other = try serving.client(registry)
        #expect(try await other.send(Resource<String>.get("/me")) == "none")
    }

    /// A plain `URLSession`, answered by `StubURLProtocol` or by a server, follows the redirect
    /// and keeps the cookies in its configuration's storage, as URLSession does for any server.
    @Test(arguments: [ServingMode.urlProtocol, .server])
    func aPlainSessionSeesTheSameInProcessAndOverTheServer(_ serving: ServingMode) async throws {
        let registry = try Self.stubs()
        let server = serving == .server ? MockServer(registry: registry) : nil
        try server?.start()
        defer { server?.stop() }
        let base = server?.baseURL.absoluteString ?? "https://api.test"
        let session = serving == .server ? URLSession(configuration: .ephemeral) : .stubbed(by: registry)
        defer { session.finishTasksAndInvalidate() }

        let (moved, movedResponse) = try await session.data(from: URL(string: base + "/old")!)
        #expect(String(decoding: moved, as: UTF8.self) == "new, cookie: moved=yes")
        #expect((movedResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(movedResponse.url?.path == "/new")
        var login = URLRequest(url: URL(string: base + "/login")!)
        login.httpMethod = "POST"
        _ = try await session.data(for: login)
        let (me, _) = try await session.data(from: URL(string: base + "/me")!)
        let cookies = String(decoding: me, as: UTF8.self).split(separator: "; ").sorted()
        #expect(cookies == ["moved=yes", "session=abc", "theme=dark"])
        let (_, multi) = try await session.data(from: URL(string: base + "/multi")!)
        #expect((multi as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Multi") == "a, b")
        #expect(registry.journal.entries.map(\.request.target) == ["/old", "/new", "/login", "/me", "/multi"])
    }

    /// Cookies a plain stubbed session keeps are its own, as a session's are.
    @Test func stubbedSessionsKeepTheirOwnCookies() async throws {
        let registry = try Self.stubs()
        let first = URLSession.stubbed(by: registry)
        let second = URLSession.stubbed(by: registry)
        var login = URLRequest(url: URL(string: "https://api.test/login")!)
        login.httpMethod = "POST"
        _ = try await first.data(for: login)
        let (seen, _) = try await second.data(from: URL(string: "https://api.test/me")!)
        #expect(String(decoding: seen, as: UTF8.self) == "none")
    }

    @Test func aStubbedSessionStopsAfterTwentyRedirects() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .movedPermanently, headerFields: [.location: "/loop"]), for: .get("/loop"))
        let error = await #expect(throws: URLError.self) {
            _ = try await URLSession.stubbed(by: registry).data(from: URL(string: "https://api.test/loop")!)
        }
        #expect(error?.code == .httpTooManyRedirects)
        #expect(registry.journal.totalCount == 21)
    }
}
