import Benchmark
import Decoy
import DecoyClient
import DecoyStubFiles
import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// In-process costs: a transport round trip (request in; status, header fields and body bytes
/// out) through each serving, the client on top of it, route lookup as routes grow, and
/// loading a large stubs folder.
/// Baselines measured in the same run: a transport that returns a prebuilt answer (a plain
/// call) and lookup among 10 routes.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 100,
        maxDuration: .seconds(2),
        maxIterations: 200_000
    )

    let body = Data(
        #"{"id": 42, "name": "Ada Lovelace", "email": "ada@example.com", "active": true, "roles": ["admin"]}"#.utf8)
    let request = HTTPRequest(
        method: .get, scheme: "https", authority: "api.test", path: "/users/42",
        headerFields: [.accept: "application/json"])
    let registry = StubRegistry()
    try! registry.register(
        StubResponse(headerFields: [.init("X-Request-Id")!: "abc"], body: body), for: .get("/users/{id}"))

    Benchmark("Baseline: prebuilt answer") { benchmark in
        let transport: any Transport = PrebuiltTransport(answer: (HTTPResponse(status: .ok), body))
        for _ in benchmark.scaledIterations { blackHole(try await transport.send(request, body: nil)) }
    }

    Benchmark("StubTransport round trip") { benchmark in
        let transport: any Transport = StubTransport(registry)
        for _ in benchmark.scaledIterations { blackHole(try await transport.send(request, body: nil)) }
    }

    Benchmark("URLSession + StubURLProtocol round trip", configuration: .init(maxIterations: 20_000)) { benchmark in
        let session = URLSession.stubbed(by: registry)
        let urlRequest = URLRequest(url: URL(string: "https://api.test/users/42")!)
        for _ in benchmark.scaledIterations { blackHole(try await session.data(for: urlRequest)) }
    }

    struct User: Decodable { let id: Int; let name: String; let email: String; let active: Bool; let roles: [String] }
    let resource = Resource<User>.get("/users/42")

    // Clients are long-lived: built once, outside the measurement (the harness calls each
    // closure once per iteration, so anything built inside is measured per request).
    let overPrebuilt = APIClient(
        baseURL: URL(string: "https://api.test")!,
        transport: PrebuiltTransport(answer: (HTTPResponse(status: .ok), body)))
    Benchmark("APIClient decode over a prebuilt answer") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await overPrebuilt.send(resource)) }
    }

    let overStubs = APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(registry))
    Benchmark("APIClient decode over StubTransport") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await overStubs.send(resource)) }
    }

    // The pipeline's cost when interceptors, retry, logging, timeout and cache are all off,
    // against what a hand-written client does per call: build the request, call the transport,
    // decode. Each side's long-lived parts (transport, decoder, client) are built once.
    let prebuilt: any Transport = PrebuiltTransport(answer: (HTTPResponse(status: .ok), body))
    let decoder = JSONDecoder()
    Benchmark("Bare round trip: transport call + JSONDecoder") { benchmark in
        for _ in benchmark.scaledIterations {
            let request = HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/users/42")
            let (_, data) = try await prebuilt.send(request, body: nil)
            blackHole(try decoder.decode(User.self, from: data))
        }
    }

    let client = APIClient(
        baseURL: URL(string: "https://api.test")!, configuration: .init(timeout: nil), transport: prebuilt)
    Benchmark("APIClient with the pipeline off") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await client.send(resource)) }
    }

    // A cache hit against the stubbed call it saves: the same answer, fresh for a day, from a
    // A memory cache under HTTP's rules, or with no cache through URLSession and StubURLProtocol (a
    // network call answered by a stub) and through StubTransport (no URL loading at all). The
    // body is left undecoded, so that what differs is only where the answer comes from.
    let cacheable = StubRegistry()
    try! cacheable.register(
        StubResponse(headerFields: [.cacheControl: "max-age=86400"], body: body), for: .get("/users/{id}"))
    let unread = Resource<Void>.get("/users/42")
    let overCache = APIClient(
        baseURL: URL(string: "https://api.test")!,
        configuration: .init(timeout: nil, cache: .memory(expiry: nil)), transport: StubTransport(cacheable))
    Benchmark("APIClient cache hit") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await overCache.response(for: unread)) }
    }
    let overURLSession = APIClient(
        baseURL: URL(string: "https://api.test")!, configuration: .init(timeout: nil),
        transport: URLSessionTransport(session: .stubbed(by: cacheable)))
    Benchmark("APIClient call over URLSession + StubURLProtocol", configuration: .init(maxIterations: 20_000)) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await overURLSession.response(for: unread)) }
    }
    let overStubTransport = APIClient(
        baseURL: URL(string: "https://api.test")!, configuration: .init(timeout: nil),
        transport: StubTransport(cacheable))
    Benchmark("APIClient call over StubTransport") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await overStubTransport.response(for: unread)) }
    }

    for count in [10, 10_000] {
        let routes = StubRegistry()
        for index in 0..<count {
            // Half literal paths (hashed), half templates (trie), as a real API has both.
            try! routes.register(
                StubResponse(), for: .get(index.isMultiple(of: 2) ? "/items/\(index)" : "/items/\(index)/parts/{part}"))
        }
        let literal = StubRequest(method: .get, target: "/items/\(count - 2)")
        let template = StubRequest(method: .get, target: "/items/\(count - 1)/parts/7")
        Benchmark("Lookup among \(count) routes") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(routes.stub(for: literal))
                blackHole(routes.stub(for: template))
            }
        }
    }

    // Generated once, outside the measurement; each iteration loads it into a fresh registry.
    let stubsFolder = generatedStubsFolder(count: 10_000)
    Benchmark(
        "Load 10,000 stub files",
        configuration: .init(
            metrics: [.wallClock, .throughput], warmupIterations: 1, maxDuration: .seconds(20), maxIterations: 5)
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try StubRegistry().load(folder: stubsFolder)) }
    }
}

/// A transport that answers every request with the same prebuilt response: a plain call.
struct PrebuiltTransport: Transport {
    let answer: (HTTPResponse, Data)

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) { answer }
}

/// A folder of `count` stub files, a typical mix: JSON and YAML, exact paths and templates,
/// header and body matchers, inline JSON bodies.
func generatedStubsFolder(count: Int) -> URL {
    // One folder per process: two benchmark runs at once must not delete each other's files.
    let folder = FileManager.default.temporaryDirectory.appending(
        path: "decoy-benchmark-stubs-\(count)-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: folder)
    for index in 0..<count {
        let (name, text) =
            index.isMultiple(of: 2)
            ? (
                "stub-\(index).json",
                """
                {
                  "name": "Get item \(index)",
                  "request": { "method": "GET", "urlPath": "/items/\(index)", "headers": { "Accept": { "contains": "json" } } },
                  "response": { "status": 200, "jsonBody": { "id": \(index), "name": "Item \(index)", "tags": ["a", "b"], "price": 12.5 } }
                }
                """
            )
            : (
                "group-\(index % 100)/stub-\(index).yaml",
                """
                name: Update item \(index)
                request:
                  method: PUT
                  urlPathTemplate: /items/\(index)/parts/{part}
                  bodyPatterns:
                    - matchesJsonPath: $.quantity
                response:
                  status: 204
                  headers:
                    X-Item: "\(index)"
                """
            )
        let file = folder.appending(path: name)
        try! FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: file)
    }
    return folder
}
