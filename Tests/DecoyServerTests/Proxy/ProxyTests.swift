import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// A proxy stub sends what it matched to a real server, a second ``MockServer`` on loopback, and
/// answers with what comes back, the same in-process and over the server.
@Suite("Proxying")
struct ProxyTests {
    /// Runs `body` with an upstream that echoes what it received: method, target, a few header
    /// fields and the body.
    static func withUpstream<Result>(_ body: (MockServer) async throws -> Result) async throws -> Result {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.init("X-Upstream")!: "yes"], json: #"{"id": 1, "name": "real"}"#),
            for: .get("/users/1"))
        try registry.register(
            ClosureStub { request in
                let seen = ["X-Added", "X-Secret", "X-Kept"].map {
                    "\($0)=\(request.headerFields[HTTPField.Name($0)!] ?? "-")"
                }
                return StubResponse(
                    status: .created,
                    text: "\(request.method) \(request.target) \(seen.joined(separator: " ")) \(request.bodyText)")
            }, for: Route(method: nil, path: "/echo/**"))
        return try await withMockServer(registry: registry, body)
    }

    @Test(arguments: ServingMode.allCases)
    func someRoutesAreStubbedAndTheRestPassThrough(mode: ServingMode) async throws {
        try await Self.withUpstream { upstream in
            let registry = StubRegistry()
            try registry.register(ProxyStub(to: upstream.baseURL), for: Route(method: nil, path: "/**", priority: 10))
            try registry.register(StubResponse(json: #"{"id": 2, "name": "stubbed"}"#), for: .get("/users/2"))
            try await withStubbedClient(mode, registry: registry) { client, _ in
                let real = try await client.response(for: Resource<Void>.get("/users/1"))
                #expect(real.status == .ok)
                #expect(real.headerFields[.init("X-Upstream")!] == "yes")
                #expect(String(decoding: real.body, as: UTF8.self) == #"{"id": 1, "name": "real"}"#)
                let stubbed = try await client.response(for: Resource<Void>.get("/users/2"))
                #expect(String(decoding: stubbed.body, as: UTF8.self) == #"{"id": 2, "name": "stubbed"}"#)
                let echoed = try await client.response(
                    for: Resource<Void>(
                        method: .post, path: "/echo/a", query: [URLQueryItem(name: "q", value: "1 2")],
                        body: .data(Data("hello".utf8), contentType: "text/plain")))
                #expect(echoed.status == .created)
                #expect(
                    String(decoding: echoed.body, as: UTF8.self)
                        == "POST /echo/a?q=1%202 X-Added=- X-Secret=- X-Kept=- hello")
            }
            // Proxied requests are journaled like any other, under the proxy's route.
            #expect(registry.journal.entries.map(\.request.target) == ["/users/1", "/users/2", "/echo/a?q=1%202"])
            #expect(registry.journal.entries.map { $0.route?.priority } == [10, Route.defaultPriority, 10])
            #expect(try upstream.engine.journal.entries(matching: .get("/users/1")).count == 1)
        }
    }

    @Test(arguments: ServingMode.allCases)
    func requestHeadersAreAddedAndRemovedAndAPrefixTakenOff(mode: ServingMode) async throws {
        try await Self.withUpstream { upstream in
            let registry = StubRegistry()
            let proxy = ProxyStub(
                to: upstream.baseURL.appending(path: "echo"), additionalRequestHeaders: [.init("X-Added")!: "added"],
                removingRequestHeaders: [.init("X-Secret")!], urlPrefixToRemove: "/api",
                responseHeaders: [.init("X-Via")!: "decoy"]
            )
            try registry.register(proxy, for: .any("/api/**"))
            try await withStubbedClient(mode, registry: registry) { client, _ in
                let headers: HTTPFields = [
                    .init("X-Secret")!: "s3cret", .init("X-Kept")!: "kept", .init("X-Added")!: "replaced",
                ]
                let echoed = try await client.response(for: Resource<Void>.get("/api/things", headerFields: headers))
                #expect(
                    String(decoding: echoed.body, as: UTF8.self)
                        == "GET /echo/things X-Added=added X-Secret=- X-Kept=kept "
                )
                #expect(echoed.headerFields[.init("X-Via")!] == "decoy")
            }
        }
    }

    /// Answers with the request line it was given, as the transport saw it.
    struct EchoingTransport: Transport {
        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            (
                HTTPResponse(status: .ok),
                Data("\(request.scheme ?? "-")://\(request.authority ?? "-")\(request.path ?? "-")".utf8)
            )
        }
    }

    @Test func anIPv6UpstreamIsNamedByItsBracketedAddress() async throws {
        // URLSession on Linux refuses a URL with an IPv6 host (URLError.badURL, though the URLRequest is
        // well made), so the request is checked as a transport gets it.
        let registry = StubRegistry()
        try registry.register(
            ProxyStub(to: URL(string: "http://[::1]:8081/base")!, transport: EchoingTransport()), for: .get("/v"))
        let body = try await registry.engine.answer(StubRequest(method: .get, target: "/v?x=1")).bodyText
        #expect(body == "http://[::1]:8081/base/v?x=1")
    }

    /// A gateway's answer, the same in every serving: no server can make its client raise the
    /// upstream's error, so no serving does.
    @Test(arguments: ServingMode.allCases)
    func anUnreachableUpstreamIsA502InEveryServing(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        let upstream = try RefusingPort()
        let target = upstream.url
        try registry.register(ProxyStub(to: target), for: .get("/users/1"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            do throws(APIError) {
                _ = try await client.response(for: Resource<Void>.get("/users/1"))
                Issue.record("expected a 502")
            } catch .unacceptableStatus(let failure) {
                #expect(failure.status == .badGateway)
                #expect(
                    String(decoding: failure.body, as: UTF8.self).hasPrefix(
                        "Decoy could not proxy GET /users/1: \(target.absoluteString)/users/1 did not answer"))
            } catch {
                Issue.record("expected a 502, got \(error)")
            }
        }
        #expect(registry.journal.entries.first?.fault != nil, "the journal notes the failure")
        #expect(registry.journal.entries.first?.status == .badGateway)
    }

    @Test func aStubFileProxiesAndReadsBackAsWritten() async throws {
        try await Self.withUpstream { upstream in
            let registry = StubRegistry()
            let json = """
                {"request": {"method": "GET", "urlPathPattern": "/echo/.*"},
                 "response": {"proxyBaseUrl": "\(upstream.baseURL.absoluteString)",
                              "additionalProxyRequestHeaders": {"X-Added": "from-file"},
                              "removeProxyRequestHeaders": ["x-secret"], "headers": {"X-Via": "decoy"},
                              "fixedDelayMilliseconds": 0}}
                """
            let mapping = try registry.addMapping(Data(json.utf8))
            let answer = try await registry.engine.answer(
                StubRequest(method: .get, target: "/echo/x", headerFields: [.init("X-Secret")!: "s"]))
            #expect(answer.bodyText == "GET /echo/x X-Added=from-file X-Secret=- X-Kept=- ")
            #expect(answer.headerFields[.init("X-Via")!] == "decoy")
            guard case .object(let members) = mapping.document, case .object(let response) = members["response"] else {
                Issue.record("no response in \(mapping.json)")
                return
            }
            #expect(response["proxyBaseUrl"] == .string(upstream.baseURL.absoluteString))
            #expect(response["removeProxyRequestHeaders"] == .array([.string("x-secret")]))
            // What code registers is written the same way, for a server in another process.
            let encoded = try StubEncoder.mapping(
                ProxyStub(
                    to: upstream.baseURL, removingRequestHeaders: [.init("X-Secret")!],
                    delay: .fixed(.milliseconds(5))),
                for: .get("/x"))
            guard case .object(let written) = encoded["response"] else {
                Issue.record("the mapping has no response object"); return
            }
            #expect(written["proxyBaseUrl"] == .string(upstream.baseURL.absoluteString))
            #expect(written["fixedDelayMilliseconds"] == .number(5))
            #expect(written["status"] == nil && written["statusMessage"] == nil)
        }
    }

    @Test func aProxyWithFieldsItCannotHonourIsRefused() throws {
        let registry = StubRegistry()
        #expect(throws: DecoyError.self) {
            try registry.addMapping(
                Data(
                    (#"{"request": {"urlPath": "/a"}, "#
                        + #""response": {"proxyBaseUrl": "http://127.0.0.1:1", "status": 201}}"#).utf8))
        }
        do {
            try registry.addMapping(
                Data(
                    (#"{"request": {"urlPath": "/a"}, "#
                        + #""responses": [{"proxyBaseUrl": "http://127.0.0.1:1"}], "mode": "sequence"}"#).utf8))
            Issue.record("a proxy in a list should be refused")
        } catch {
            #expect("\(error)".contains("proxyBaseUrl goes in a stub's own \"response\""))
        }
        do {
            try registry.addMapping(
                Data(#"{"request": {"urlPath": "/a"}, "response": {"proxyBaseUrl": "not a url"}}"#.utf8))
            Issue.record("a base URL without a host should be refused")
        } catch {
            #expect("\(error)".contains("an http or https URL"))
        }
        #expect(throws: DecoyError.self) {
            try StubEncoder.mapping(
                ProxyStub(to: URL(string: "http://127.0.0.1:1")!, transport: StubTransport(StubRegistry())),
                for: .get("/x"))
        }
    }

}

extension StubResponse {
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}
