import Decoy
import DecoyClient
import DecoyStubFiles
import Foundation
import HTTPTypes
import RecordedAPI

/// The work per request of the stub engine behind `StubTransport`, the in-process serving tests
/// use, for counting instructions under callgrind: `Instructions CASE COUNT [setup]`.
///
/// Builds the case's registry and requests for COUNT iterations, then, unless `setup` is given,
/// answers COUNT requests. A run with `setup` counts everything but the answers, so the difference
/// of the two runs divided by COUNT is one answer's instructions, exactly and on a loaded machine
/// alike. Nothing here reads the time or draws unseeded randomness, so two runs count the same.
@main
struct Instructions {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count >= 2, let name = arguments.first, let count = Int(arguments.dropFirst().first!),
            let bench = cases[name]
        else {
            print("usage: Instructions CASE COUNT [setup]; cases: \(cases.keys.sorted().joined(separator: ", "))")
            exit(2)
        }
        let run = try bench(count)
        guard arguments.count < 3 else { return }
        // Awaited from a synchronous main: an async main parks the main thread in libdispatch's
        // `sigsuspend`, where valgrind 3.19 crashes. Detached, as main's actor is the one waiting.
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            for index in 0..<count { try await run(index) }
            finished.signal()
        }
        finished.wait()
    }

    /// Each case: its setup for a number of iterations, returning one iteration.
    static let cases: [String: @Sendable (Int) throws -> (Int) async throws -> Void] = [
        // A response template that reads a path segment, a query value and the method, against
        // a static stub of the same size (the "templates" server benchmark's pair).
        "static answer": { _ in
            let registry = StubRegistry()
            try registry.register(StubResponse(json: templateBody), for: .get("/static/{id}"))
            let transport = StubTransport(registry)
            let request = Self.get("/static/42?page=3")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        "templated answer": { _ in
            let registry = StubRegistry()
            try registry.register(try StubResponse(json: template).templated(), for: .get("/templated/{id}"))
            let transport = StubTransport(registry)
            let request = Self.get("/templated/42?page=3")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        // A dictionary lookup and an async call returning a prebuilt response: the plain
        // call that every other case is compared to.
        "baseline": { _ in
            let answers = ["/items/9998": StubResponse(body: body)]
            let answer: @Sendable (String) async -> StubResponse? = { answers[$0] }
            return { _ in blackHole(await answer("/items/9998")) }
        },
        "matched literal": { _ in
            let transport = try routes()
            let request = Self.get("/items/9998")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        "matched template": { _ in
            let transport = try routes()
            let request = Self.get("/items/9999/parts/7")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        // The same near miss again and again, as a client retrying or a load generator sends it.
        "unmatched near miss": { _ in
            let transport = try routes()
            let request = Self.get("/items/9999/part/7")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        // A new near miss each time, so that every request walks the trie for its closest routes.
        "unmatched, each new": { count in
            let transport = try routes()
            let requests = (0..<count).map { Self.get("/items/\($0 * 2 + 1)/part/7") }
            return { index in blackHole(try await transport.send(requests[index], body: nil)) }
        },
        "delayed stub": { _ in
            let registry = StubRegistry(clock: ImmediateClock())
            try registry.register(StubResponse(body: body, delay: .fixed(.milliseconds(5))), for: .get("/slow"))
            let transport = StubTransport(registry)
            let request = Self.get("/slow")
            return { _ in blackHole(try await transport.send(request, body: nil)) }
        },
        // The client's own work on an answer: sending a resource over a transport that hands back
        // a prebuilt answer, and decoding its JSON body into a model.
        "client decode": { _ in
            let client = APIClient(
                baseURL: URL(string: "https://api.test")!, configuration: .init(timeout: nil),
                transport: PrebuiltAnswer(body: body))
            let resource = Resource<Record>.get("/items/9998")
            return { _ in blackHole(try await client.send(resource)) }
        },
        // RecordedAPI's 1,000 items in turn, from the folder RecordingBench recorded (named by
        // DECOY_RECORDED_STUBS), loaded as a test loads it, and from the same stubs registered in code.
        "replay recorded": { _ in
            guard let folder = ProcessInfo.processInfo.environment["DECOY_RECORDED_STUBS"] else {
                print("replay recorded needs DECOY_RECORDED_STUBS, the folder RecordingBench wrote")
                exit(2)
            }
            let registry = StubRegistry()
            try registry.load(folder: URL(filePath: folder), strict: true)
            return replay(registry)
        },
        "replay hand-written": { _ in replay(try RecordedAPI.handWritten()) },
    ]

    /// One iteration answers the next of RecordedAPI's items from `registry`.
    static func replay(_ registry: StubRegistry) -> (Int) async throws -> Void {
        let transport = StubTransport(registry)
        let requests = (0..<RecordedAPI.count).map(RecordedAPI.request)
        return { index in blackHole(try await transport.send(requests[index % requests.count], body: nil)) }
    }

    /// The model of ``body``.
    struct Record: Decodable, Sendable {
        let id: Int
        let name: String
        let status: String
    }

    /// A transport that answers every request with `200` and the same body, at once.
    struct PrebuiltAnswer: Transport {
        let body: Data

        func send(_ request: HTTPRequest, body _: Data?) async throws -> (HTTPResponse, Data) {
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), body)
        }
    }

    static let templateBody = #"{"id":"42","page":"3","method":"GET","name":"benchmark-stub","status":"ok"}"#
    static let template = #"""
        {"id":"{{request.path.[1]}}","page":"{{request.query.page}}","method":"{{request.method}}",\#
        "name":"benchmark-stub","status":"ok"}
        """#

    static let body = Data(#"{"id":42,"name":"benchmark-stub","status":"ok"}"#.utf8)

    /// 10,000 routes, half literal paths (hashed), half templates (trie), as InProcess's lookup has.
    static func routes() throws -> StubTransport {
        let registry = StubRegistry()
        for index in 0..<10_000 {
            try registry.register(
                StubResponse(body: body),
                for: .get(index.isMultiple(of: 2) ? "/items/\(index)" : "/items/\(index)/parts/{part}"))
        }
        return StubTransport(registry)
    }

    /// `GET target` to the host the in-process serving stands for.
    static func get(_ target: String) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: target)
    }
}

/// Keeps `value` alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// A clock whose sleeps end at once: a delayed stub's delivery without waiting, and without
/// the thread hops a real sleep adds, which would make two runs count differently.
struct ImmediateClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}
