import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("Request types to other hosts: whole URLs, property wrappers, builders, loading through a transport")
struct OtherHostTests {
    struct Repository: Codable, Equatable, Sendable { let name: String }

    struct RepositorySearch: Request {
        @Query(name: "q") var text = ""
        @Query(name: "tag") var tags: [String] = []
        @Query(name: "sort") var sort: String? = nil
        @Header(.accept) var accept = "application/json"
        var page = 1
        var includeForks = false

        var resource: Resource<[Repository]> {
            Resource.get("https://search.example.com:8443/search/repositories")
                .query {
                    URLQueryItem(name: "page", value: "\(page)")
                    if includeForks {
                        URLQueryItem(name: "forks", value: "true")
                    } else {
                        URLQueryItem(name: "forks", value: "false")
                    }
                }
                .headers { for tag in tags { HTTPField(name: .init("X-Tag")!, value: tag) } }
        }

        func prepare(request: HTTPRequest) -> HTTPRequest {
            var signed = request
            signed.headerFields[.init("X-Signature")!] = "sig:\(request.path ?? "")"
            return signed
        }
    }

    /// Parses a header and the body by hand.
    struct RateLimit: Request {
        var resource: Resource<(remaining: Int, note: String)> {
            Resource(method: .post, path: "http://limits.example.com/rate", body: .json(["window": 60])).decoded {
                data, response in
                guard let remaining = response.headerFields[.init("X-Remaining")!].flatMap(Int.init) else {
                    throw URLError(.cannotParseResponse)
                }
                return (remaining, String(decoding: data, as: UTF8.self))
            }
        }
    }

    /// Keeps the requests a transport is asked to send, authority included.
    final class Capturing: Transport {
        let base: StubTransport
        let requests = Mutex<[HTTPRequest]>([])
        init(_ registry: StubRegistry) { base = StubTransport(registry) }
        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            requests.withLock { $0.append(request) }
            return try await base.send(request, body: body)
        }
    }

    static func registry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"[{"name": "decoy"}]"#), for: .get("/search/repositories"))
        try registry.register(
            StubResponse(headerFields: [.init("X-Remaining")!: "41"], text: "ok"), for: .post("/rate"))
        try registry.register(StubResponse(status: .tooManyRequests), for: .get("/limited"))
        return registry
    }

    @Test func buildsTheRequestFromPropertiesWrappersAndBuilders() async throws {
        let transport = Capturing(try Self.registry())
        var search = RepositorySearch(page: 2)
        search.text = "stub server"
        search.tags = ["swift", "http"]
        #expect(try await transport.load(search) == [Repository(name: "decoy")])
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.scheme == "https")
        #expect(request.authority == "search.example.com:8443")
        #expect(request.path == "/search/repositories?q=stub%20server&tag=swift&tag=http&page=2&forks=false")
        #expect(request.headerFields[.accept] == "application/json")
        #expect(request.headerFields[values: .init("X-Tag")!] == ["swift", "http"])
        #expect(
            request.headerFields[.init("X-Signature")!] == "sig:\(request.path ?? "")",
            "prepare saw the finished request")
    }

    @Test func aWholeURLIgnoresTheClientsBaseURLAndDefaults() async throws {
        let transport = Capturing(try Self.registry())
        let client = APIClient(
            baseURL: URL(string: "https://api.test/v9")!,
            configuration: .init(
                headerFields: [.authorization: "Bearer secret"], queryItems: [URLQueryItem(name: "api_key", value: "k")]
            ),
            transport: transport
        )
        let result = try await client.send(RateLimit())
        #expect(result.remaining == 41)
        #expect(result.note == "ok")
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.scheme == "http")
        #expect(request.authority == "limits.example.com")
        #expect(request.path == "/rate")
        #expect(request.headerFields[.authorization] == nil, "the client's credentials stay with its own API")
        #expect(request.headerFields[.contentType] == "application/json")
    }

    @Test func completionHandlerVariantDecodesWithTheResourcesStep() async throws {
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(try Self.registry()))
        let result = await withCheckedContinuation { continuation in
            client.send(RateLimit()) { continuation.resume(returning: $0.map(\.remaining)) }
        }
        #expect(try result.get() == 41)
    }

    @Test func clientPipelineAppliesToOtherHosts() async throws {
        let registry = try Self.registry()
        let seen = Mutex(0)
        let client = APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(interceptors: [
                RequestAdapter { _, _ in seen.withLock { $0 += 1 } }
            ]), transport: StubTransport(registry))
        _ = try await client.send(RepositorySearch())
        #expect(seen.withLock { $0 } == 1)
    }

    struct Limited: Request {
        var resource: Resource<[Repository]> { .get("https://api.test/limited") }
    }

    @Test func loadFailsOnAStatusOutside2xx() async throws {
        let error = await #expect(throws: APIError.self) {
            try await StubTransport(try Self.registry()).load(Limited())
        }
        guard case .unacceptableStatus(let failure) = error else { Issue.record("expected a status failure"); return }
        #expect(failure.status == .tooManyRequests)
    }

    @Test func aFailingDecodingStepIsADecodingFailure() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "no header"), for: .post("/rate"))
        let error = await #expect(throws: APIError.self) { try await StubTransport(registry).load(RateLimit()) }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.body == Data("no header".utf8))
    }

    @Test func transportFailureIsClassified() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(.connectionReset), for: .get("/limited"))
        let error = await #expect(throws: APIError.self) { try await StubTransport(registry).load(Limited()) }
        guard case .transport(let failure, _) = error else { Issue.record("expected a transport failure"); return }
        #expect(failure == .connectionLost)
    }

    @Test func aWholeURLKeepsItsQueryBeforeTheResourcesOwnAndItsPathAsWritten() async throws {
        let transport = Capturing(try Self.registry())
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: transport)
        _ = try? await client.send(
            Resource<Void>.get("http://files.test:8080/annual report.pdf?v=2&lang=en", query: ["lang": "fr"]))
        let request = try #require(transport.requests.withLock { $0.first })
        #expect(request.authority == "files.test:8080")
        #expect(request.path == "/annual%20report.pdf?v=2&lang=fr")
        let error = await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("https://")) }
        guard case .invalidRequest(let reason) = error else { Issue.record("expected an invalid request"); return }
        #expect(reason == "GET https:// is not a URL")
    }

    @Test func loadNeedsAWholeURL() async throws {
        let error = await #expect(throws: APIError.self) {
            try await StubTransport(try Self.registry()).load(Resource<Void>.get("/limited"))
        }
        guard case .invalidRequest(let reason) = error else { Issue.record("expected an invalid request"); return }
        #expect(reason.contains("GET /limited names no host"))
    }

    @Test func parametersSendTheirValuesAsText() async throws {
        struct Parameters: Request {
            @Query(name: "none") var none: Int? = nil
            @Query(name: "some") var some: String? = "a"
            @Query(name: "n") var numbers = [1, 2]
            @Query(name: "flag") var flag = true
            @Header(.init("X-Ratio")!) var ratio = 2.5
            @Header(.init("X-Tag")!) var tags = ["x", "y"]
            var resource: Resource<Void> { .get("/parameters", query: ["page": "1"]) }
        }
        let recorder = try Recorder()
        try await recorder.client().send(Parameters())
        #expect(recorder.request?.target == "/parameters?some=a&n=1&n=2&flag=true&page=1")
        #expect(recorder.request?.headerFields[.init("X-Ratio")!] == "2.5")
        #expect(recorder.request?.headerFields[values: .init("X-Tag")!] == ["x", "y"])
    }

    @Test func requestsOfOneFinalTypeKeepTogetherAndSendAlike() async throws {
        let registry = try Self.registry()
        let requests: [any Request<[Repository]>] = [
            RepositorySearch(), Limited(), Resource.get("https://x.test/search/repositories"),
        ]
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(registry))
        #expect(try await client.send(requests[0]) == [Repository(name: "decoy")])
        #expect(try await client.send(requests[2]) == [Repository(name: "decoy")])
        await #expect(throws: APIError.self) { try await client.send(requests[1]) }
    }

    @Test func resourceBuildersAddQueryItemsAndHeaders() async throws {
        let recorder = try Recorder()
        let filters = ["open", "mine"]
        let urgent = true
        let resource = Resource<Void>.get("/issues")
            .query {
                for filter in filters { URLQueryItem(name: "filter", value: filter) }
                if urgent { URLQueryItem(name: "urgent", value: nil) }
            }
            .headers {
                HTTPField(name: .accept, value: "application/json")
                if !urgent { HTTPField(name: .cacheControl, value: "no-cache") }
                HTTPFields([HTTPField(name: .init("X-Trace")!, value: "t1")])
            }
        try await recorder.client().send(resource)
        #expect(recorder.request?.target == "/issues?filter=open&filter=mine&urgent")
        #expect(recorder.request?.headerFields[.accept] == "application/json")
        #expect(recorder.request?.headerFields[.cacheControl] == nil)
        #expect(recorder.request?.headerFields[.init("X-Trace")!] == "t1")
    }
}
