import Clocks
import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A registry whose every answer carries `fields` and, as its body, how many requests reached its
/// path; a request whose `If-None-Match` is the `ETag` in `fields` gets `304 Not Modified`.
private func origin(_ fields: HTTPFields) throws -> StubRegistry {
    let registry = StubRegistry()
    let counts = Mutex<[String: Int]>([:])
    try registry.register(
        ClosureStub { request in
            let count = counts.withLock {
                $0[request.path, default: 0] += 1; return $0[request.path]!
            }
            if let etag = fields[.eTag], request.headerFields[.ifNoneMatch] == etag {
                return StubResponse(status: .notModified, headerFields: fields, body: Data())
            }
            return StubResponse(headerFields: fields, text: "\(request.headerFields[.acceptLanguage] ?? "-") \(count)")
        }, for: Route(method: nil, path: "/.*", pathSyntax: .regularExpression))
    return registry
}

private func hits(_ registry: StubRegistry, _ path: String) -> Int {
    registry.journal.entries.filter { $0.request.path == path }.count
}

private let text = Resource<String>.get("/a").decoded { data, _ in String(decoding: data, as: UTF8.self) }

@Suite("HTTP caching in every serving")
struct HTTPCachingServingTests {
    /// Runs `body` with a client of `mode` whose memory cache and ages go by `clock`, a test
    /// clock, against an origin whose answers carry `fields`; returns the origin.
    private func withClockedClient(
        _ mode: ServingMode, answering fields: HTTPFields, _ body: (APIClient, TestClock<Duration>) async throws -> Void
    ) async throws -> StubRegistry {
        let clock = TestClock()
        let registry = try origin(fields)
        let configuration = APIClient.Configuration(timeout: nil, clock: clock, cache: .memory(clock: clock))
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ in
            try await body(client, clock)
        }
        return registry
    }

    @Test(arguments: ServingMode.allCases)
    func maxAgeIsServedUntilItPasses(_ mode: ServingMode) async throws {
        let registry = try await withClockedClient(mode, answering: [.cacheControl: "max-age=60"]) {
            client, clock async throws in
            #expect(try await client.response(for: text).source == .network)
            await clock.advance(by: .seconds(30))
            #expect(try await client.response(for: text).source == .cache)
            await clock.advance(by: .seconds(31))
            #expect(try await client.response(for: text).source == .network)
        }
        #expect(hits(registry, "/a") == 2)
    }

    @Test(arguments: ServingMode.allCases)
    func aClientAskingForAFresherAnswerGetsTheNetworks(_ mode: ServingMode) async throws {
        let registry = try await withClockedClient(mode, answering: [.cacheControl: "max-age=600"]) {
            client, clock async throws in
            _ = try await client.send(text)
            await clock.advance(by: .seconds(60))
            #expect(try await client.response(for: text.header(.cacheControl, "max-age=120")).source == .cache)
            #expect(try await client.response(for: text.header(.cacheControl, "max-age=30")).source == .network)
        }
        #expect(hits(registry, "/a") == 2)
    }

    @Test(arguments: ServingMode.allCases)
    func aStaleResponseIsRevalidatedWithItsETag(_ mode: ServingMode) async throws {
        let registry = try origin([.cacheControl: "max-age=0", .eTag: "\"v1\""])
        let configuration = APIClient.Configuration(cache: .memory())
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ async throws in
            _ = try await client.send(text)
            let second = try await client.response(for: text)
            // URLSession on Linux adds an Accept-Language of its own: the count is what matters.
            #expect(second.value.hasSuffix(" 1"))
            #expect(second.source == .revalidated)
        }
        #expect(registry.journal.entries.last?.request.headerFields[.ifNoneMatch] == "\"v1\"")
    }

    @Test(arguments: ServingMode.allCases)
    func varyKeepsLanguagesApart(_ mode: ServingMode) async throws {
        let registry = try origin([.cacheControl: "max-age=600", .vary: "Accept-Language"])
        let configuration = APIClient.Configuration(cache: .memory())
        try await withStubbedClient(mode, registry: registry, configuration: configuration) { client, _ async throws in
            #expect(try await client.send(text.header(.acceptLanguage, "en")) == "en 1")
            #expect(try await client.send(text.header(.acceptLanguage, "fr")) == "fr 2")
            #expect(try await client.send(text.header(.acceptLanguage, "fr")) == "fr 2")
        }
    }
}

#if canImport(FoundationNetworking)
    /// The client's `.http` policy against `URLSession` with a `URLCache`, over the real server.
    ///
    /// FoundationNetworking's session reads a `URLCache` but never writes to it (checked on Swift
    /// 6.3: no response is stored, whatever its fields), and it neither revalidates nor ages by
    /// `Date`, `Age` or `Expires`. What it does decide is whether a stored response is served:
    /// `max-age`, `no-cache`, `no-store`, `Vary` and a changed `Authorization`. The test stores
    /// by hand what a session on Apple's platforms would store after the first exchange, then
    /// compares, field by field, whether the second request reached the server.
    @Suite("HTTP caching: parity with URLSession and URLCache on Linux")
    struct URLCacheParityTests {
        struct Case: Sendable, CustomStringConvertible {
            let description: String
            let response: HTTPFields
            var first: HTTPFields = [:]
            var second: HTTPFields = [:]
            /// How many of the two requests reach the server: 1 when the second is served from the cache.
            var hits = 2
        }

        static let cases = [
            Case(description: "max-age", response: [.cacheControl: "max-age=60"], hits: 1),
            Case(description: "max-age=0", response: [.cacheControl: "max-age=0"]),
            Case(description: "no-cache", response: [.cacheControl: "no-cache, max-age=60"]),
            Case(description: "no-store", response: [.cacheControl: "no-store, max-age=60"]),
            Case(
                description: "Vary", response: [.cacheControl: "max-age=60", .vary: "Accept-Language"],
                first: [.acceptLanguage: "en"], second: [.acceptLanguage: "fr"]),
            Case(
                description: "Authorization", response: [.cacheControl: "max-age=60"],
                first: [.authorization: "Bearer ada"], second: [.authorization: "Bearer bob"]),
        ]

        @Test(arguments: cases)
        func theSecondRequestReachesTheServerWhenURLSessionsWould(_ field: Case) async throws {
            let registry = try origin(field.response)
            let server = MockServer(registry: registry)
            try server.start()
            defer { server.stop() }

            let cache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = cache
            configuration.requestCachePolicy = .useProtocolCachePolicy
            let session = URLSession(configuration: configuration)
            defer { session.finishTasksAndInvalidate() }
            func request(_ path: String, _ fields: HTTPFields) -> URLRequest {
                var request = URLRequest(url: server.baseURL.appending(path: path))
                for field in fields { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
                return request
            }
            let (data, response) = try await session.data(for: request("/session", field.first))
            if !(field.response[.cacheControl]?.contains("no-store") ?? false) {
                cache.storeCachedResponse(
                    CachedURLResponse(response: response, data: data), for: request("/session", field.first))
            }
            _ = try await session.data(for: request("/session", field.second))

            let client = APIClient(
                baseURL: server.baseURL, configuration: .init(cache: .memory()), transport: URLSessionTransport())
            func send(_ fields: HTTPFields) async throws {
                try await client.send(Resource<Void>.get("/client", headerFields: fields))
            }
            try await send(field.first)
            try await send(field.second)

            #expect(hits(registry, "/session") == field.hits, "URLSession, \(field)")
            #expect(hits(registry, "/client") == field.hits, "APIClient, \(field)")
        }

    }
#endif
