import Clocks
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

/// The same stubs must give the same client-visible outcome through `StubTransport`,
/// `StubURLProtocol` and the server.
@Suite("Parity: every serving gives the same outcome")
struct ParityTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let register: @Sendable (StubRegistry) throws -> Void
        let requests: [Resource<Void>]
        let headers: [String]
        let expected: [Outcome]
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] =
        [
            Scenario(
                name: "static response",
                register: {
                    try $0.register(
                        StubResponse(
                            status: .created, headerFields: [.init("X-Request-Id")!: "r-1"], json: #"{"id": 1}"#),
                        for: .post("/users"))
                },
                requests: [.post("/users", body: ["name": "Ada"])], headers: ["X-Request-Id", "Content-Type"],
                expected: [
                    .response(
                        status: 201, headers: ["X-Request-Id": "r-1", "Content-Type": "application/json"],
                        body: #"{"id": 1}"#)
                ]),
            Scenario(
                name: "alternating",
                register: {
                    try $0.register(
                        AlternatingStub([StubResponse(text: "a"), StubResponse(status: .serviceUnavailable, text: "b")]
                        ), for: .get("/alt"))
                },
                requests: Array(repeating: .get("/alt"), count: 3), headers: [],
                expected: [
                    .response(status: 200, headers: [:], body: "a"), .response(status: 503, headers: [:], body: "b"),
                    .response(status: 200, headers: [:], body: "a"),
                ]),
            Scenario(
                name: "random with a seed",
                register: {
                    try $0.register(
                        RandomStub((0..<6).map { StubResponse(text: "\($0)") }, seed: 99), for: .get("/dice"))
                },
                requests: Array(repeating: .get("/dice"), count: 6), headers: [],
                expected: Self.seededDraws(seed: 99, faces: 6, count: 6).map {
                    .response(status: 200, headers: [:], body: $0)
                }),
            Scenario(
                name: "conditional on the request",
                register: {
                    try $0.register(
                        ConditionalStub(
                            when: { $0.headerFields[.authorization] != nil }, then: StubResponse(text: "in"),
                            else: StubResponse(status: .unauthorized, text: "out")), for: .get("/me"))
                },
                requests: [.get("/me"), .get("/me", headerFields: [.authorization: "Bearer x"])], headers: [],
                expected: [
                    .response(status: 401, headers: [:], body: "out"), .response(status: 200, headers: [:], body: "in"),
                ]),
            Scenario(
                name: "closure sees the body",
                register: {
                    try $0.register(
                        ClosureStub { StubResponse(status: .accepted, text: "got \($0.bodyText)") }, for: .put("/echo"))
                },
                requests: [
                    Resource(method: .put, path: "/echo", body: .data(Data("hello".utf8), contentType: "text/plain"))
                ], headers: [],
                expected: [.response(status: 202, headers: [:], body: "got hello")]),
            Scenario(
                name: "sequence",
                register: {
                    try $0.register(
                        SequenceStub(
                            first: [StubResponse.fault(.connectionReset), StubResponse(status: .badGateway)],
                            then: StubResponse(text: "ok")), for: .get("/seq"))
                },
                requests: Array(repeating: .get("/seq"), count: 4), headers: [],
                expected: [
                    .failure(.connectionLost), .response(status: 502, headers: [:], body: ""),
                    .response(status: 200, headers: [:], body: "ok"), .response(status: 200, headers: [:], body: "ok"),
                ]),
            Scenario(
                name: "failure rate with a seed", register: { try $0.register(Self.flaky(), for: .get("/flaky")) },
                requests: Array(repeating: .get("/flaky"), count: 10), headers: [],
                expected: Self.seededFailures(count: 10)),
            Scenario(
                name: "HEAD",
                register: {
                    try $0.register(
                        StubResponse(headerFields: [.init("X-Size")!: "4"], text: "body"), for: .any("/thing"))
                },
                requests: [Resource(method: .head, path: "/thing")], headers: ["X-Size", "Content-Length"],
                expected: [.response(status: 200, headers: ["X-Size": "4", "Content-Length": "4"], body: "")]),
            Scenario(
                name: "unmatched 404 with diagnostics",
                register: { try $0.register(StubResponse(), for: .get("/users/{id}/orders")) },
                requests: [.get("/users/1/order")], headers: ["X-Decoy-Unmatched"],
                expected: [
                    .response(
                        status: 404, headers: ["X-Decoy-Unmatched": "true"],
                        body: """
                            No stub matches GET /users/1/order.
                            Closest routes:
                              - GET /users/{id}/orders: path segment 3 is "order", the route expects "orders"

                            """)
                ]),
            Scenario(
                name: "unmatched 404 lists the route a typo missed",
                register: { registry in
                    for path in ["/status", "/feed", "/me", "/users/{id}"] {
                        try registry.register(StubResponse(), for: .get(path))
                    }
                },
                requests: [.get("/user/42")], headers: ["X-Decoy-Unmatched"],
                expected: [
                    .response(
                        status: 404, headers: ["X-Decoy-Unmatched": "true"],
                        body: """
                            No stub matches GET /user/42.
                            Closest routes:
                              - GET /users/{id}: path segment 1 is "user", the route expects "users"
                              - GET /feed: path segment 1 is "user", the route expects "feed"; the route expects 1 \
                            path segments, the request has 2
                              - GET /me: path segment 1 is "user", the route expects "me"; the route expects 1 path \
                            segments, the request has 2

                            """)
                ]),
            Scenario(
                name: "redirect followed",
                register: { registry in
                    try registry.register(
                        StubResponse(status: .found, headerFields: [.location: "/new"], text: "moved"),
                        for: .get("/old"))
                    try registry.register(
                        StubResponse(headerFields: [.init("X-Hop")!: "new"], text: "here"), for: .get("/new"))
                },
                requests: [.get("/old")], headers: ["X-Hop"],
                expected: [.response(status: 200, headers: ["X-Hop": "new"], body: "here")]),
            Scenario(
                name: "cookies kept and sent back",
                register: { registry in
                    try registry.register(
                        ClosureStub { StubResponse(text: "cookie: \($0.headerFields[.cookie] ?? "none")") },
                        for: .get("/me"))
                    try registry.register(
                        StubResponse(
                            status: .seeOther, headerFields: [.setCookie: "session=abc; Path=/", .location: "/me"]),
                        for: .post("/login"))
                    try registry.register(
                        StubResponse(headerFields: [.setCookie: "theme=dark; Path=/"]), for: .get("/theme"))
                },
                requests: [.get("/me"), .post("/login", body: ["user": "ada"]), .get("/theme"), .get("/me")],
                headers: [],
                expected: [
                    .response(status: 200, headers: [:], body: "cookie: none"),
                    .response(status: 200, headers: [:], body: "cookie: session=abc"),
                    .response(status: 200, headers: [:], body: ""),
                    .response(status: 200, headers: [:], body: "cookie: session=abc; theme=dark"),
                ]),
            Scenario(
                name: "repeated response fields",
                register: {
                    try $0.register(
                        StubResponse(headerFields: [.init("X-Multi")!: "a", .init("X-Multi")!: "b"], text: "two"),
                        for: .get("/multi"))
                },
                requests: [.get("/multi")], headers: ["X-Multi"],
                expected: [.response(status: 200, headers: ["X-Multi": "a, b"], body: "two")]),
            Scenario(
                name: "encoded body is deterministic",
                register: { registry in
                    try registry.register(StubResponse(encoding: Self.manyKeys), for: .get("/one"))
                    try registry.register(StubResponse(encoding: Self.manyKeys), for: .get("/two"))
                },
                requests: [.get("/one"), .get("/two")], headers: [],
                expected: Array(repeating: .response(status: 200, headers: [:], body: Self.manyKeysSorted), count: 2)),
        ] + Self.faultScenarios

    /// Enough keys that two dictionaries of them seldom iterate in the same order.
    static let manyKeys = Dictionary(uniqueKeysWithValues: (0..<16).map { ("key\($0)", $0) })
    static let manyKeysSorted =
        "{" + (0..<16).map { "key\($0)" }.sorted().map { #""\#($0)":\#($0.dropFirst(3))"# }.joined(separator: ",") + "}"

    static let faults: [(Fault, TransportFailure)] = [
        (.connectionReset, .connectionLost),
        (.emptyResponse, .badResponse),
        (.malformedResponse, .badResponse),
        (.randomDataThenClose, .badResponse),
    ]

    static let faultScenarios: [Scenario] = faults.map { fault, category in
        Scenario(
            name: "fault \(fault)", register: { try $0.register(StubResponse.fault(fault), for: .get("/fault")) },
            requests: [.get("/fault")], headers: [], expected: [.failure(category)])
    }

    @Test(arguments: scenarios)
    func sameOutcomeInEveryMode(_ scenario: Scenario) async throws {
        for mode in ServingMode.allCases {
            let registry = StubRegistry()
            try scenario.register(registry)
            let outcomes = try await withStubbedClient(mode, registry: registry) { client, _ in
                var outcomes: [Outcome] = []
                for request in scenario.requests {
                    outcomes.append(await Outcome.of(request, on: client, keeping: scenario.headers))
                }
                return outcomes
            }
            #expect(outcomes == scenario.expected, "\(mode)")
        }
    }

    /// The lower bound is the claim; the upper one only catches a wait that does not end, with room
    /// for a loaded two-core machine where other tests keep the cooperative pool busy.
    @Test(arguments: ServingMode.allCases)
    func delayIsObservedWithinTolerance(_ mode: ServingMode) async throws {
        let registry = StubRegistry(seed: 1, defaultDelay: .lognormal(median: .milliseconds(100), sigma: 0.1))
        try registry.register(StubResponse(text: "late", delay: .fixed(.milliseconds(300))), for: .get("/slow"))
        try registry.register(StubResponse(text: "default"), for: .get("/default"))
        try registry.register(
            StubResponse(text: "soon", delay: .uniform(.milliseconds(100)...(.milliseconds(150)))), for: .get("/jitter")
        )
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await client.send(Resource<String>.get("/slow")) == "late")
            let elapsed = clock.now - start
            #expect(elapsed >= .milliseconds(300) && elapsed < .milliseconds(300) + endlessWait, "\(elapsed)")
            let jitterStart = clock.now
            _ = try await client.send(Resource<String>.get("/jitter"))
            let jitter = clock.now - jitterStart
            #expect(jitter >= .milliseconds(100) && jitter < .milliseconds(150) + endlessWait, "\(jitter)")
            let defaultStart = clock.now
            _ = try await client.send(Resource<String>.get("/default"))
            let byDefault = clock.now - defaultStart
            // The seed fixes the draw; 60 ms lies five sigmas below the median.
            #expect(byDefault >= .milliseconds(60) && byDefault < .milliseconds(200) + endlessWait, "\(byDefault)")
        }
    }

    /// The delay the journal reports for a matched request is the one it was held for, its own or
    /// the registry's default, in every serving, and so is what the admin API reports of it; an
    /// unmatched request and a stub without delay report none.
    @Test(arguments: ServingMode.allCases)
    func theJournalReportsTheDelayOfAMatchedDelayedRequest(_ mode: ServingMode) async throws {
        let registry = StubRegistry(defaultDelay: .fixed(.milliseconds(20)))
        try registry.register(StubResponse(text: "late", delay: .fixed(.milliseconds(30))), for: .get("/slow"))
        try registry.register(StubResponse(text: "default"), for: .get("/default"))
        try await withStubbedClient(mode, registry: registry) { client, baseURL in
            _ = try await client.send(Resource<String>.get("/slow"))
            _ = try await client.send(Resource<String>.get("/default"))
            _ = await Outcome.of(.get("/missing"), on: client, keeping: [])
            let delays = registry.journal.entries.map { ($0.request.path, $0.delay) }
            #expect(delays.map(\.0) == ["/slow", "/default", "/missing"], "\(mode)")
            #expect(delays.map(\.1) == [.milliseconds(30), .milliseconds(20), .zero], "\(mode)")
            guard mode == .server else { return }
            let (data, _) = try await URLSession.shared.data(from: baseURL.appending(path: "__admin/requests"))
            let listed = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            let added = (listed["requests"] as? [[String: Any]] ?? []).map { event -> [String: Int] in
                let request = event["request"] as? [String: Any]
                let timing = event["timing"] as? [String: Any]
                return [request?["url"] as? String ?? "": timing?["addedDelay"] as? Int ?? -1]
            }
            #expect(
                added.reduce(into: [:]) { $0.merge($1) { a, _ in a } } == ["/slow": 30, "/default": 20, "/missing": 0])
        }
    }

    /// A stub's own `Content-Length` sends as many bytes of its body, as WireMock's Jetty does, in
    /// every serving: a response registered in code as a stub file's.
    @Test(arguments: ServingMode.allCases)
    func aStubsOwnContentLengthCutsItsBodyInEveryServing(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(headerFields: [.contentLength: "0"], json: "{}"), for: .get("/empty"))
        try registry.register(StubResponse(headerFields: [.contentLength: "3"], json: #"{"a":1}"#), for: .get("/three"))
        for (path, text) in [("/empty", ""), ("/three", #"{"a"#)] {
            let outcome = try await mode.exchange(registry, .get, path)
            #expect(outcome.text == text, "\(mode) \(path)")
            #expect(outcome.headerFields[.contentLength] == "\(text.utf8.count)", "\(mode) \(path)")
        }
    }

    /// libcurl, under URLSession on Linux, silently retries a request whose reused keep-alive
    /// connection closes before a byte of the answer. A reset sends a status line first, so the
    /// retry never happens; an empty response cannot, so its stub is reached twice (documented on
    /// `Fault.emptyResponse`), though the client still sees the fault.
    @Test(arguments: ServingMode.allCases, faults)
    func faultOnAReusedConnectionReachesTheClient(_ mode: ServingMode, _ fault: (Fault, TransportFailure))
        async throws
    {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "fine"), for: .get("/fine"))
        try registry.register(StubResponse.fault(fault.0), for: .get("/fault"))
        let outcome = try await withStubbedClient(mode, registry: registry) { client, _ in
            _ = try await client.send(Resource<String>.get("/fine"))
            return await Outcome.of(.get("/fault"), on: client, keeping: [])
        }
        #expect(outcome == .failure(fault.1))
        let count = registry.journal.entries.count { $0.request.target == "/fault" }
        let mayBeRetried = mode == .server && fault.0 == .emptyResponse
        #if canImport(FoundationNetworking)
            #expect(count == (mayBeRetried ? 2 : 1))
        #else
            #expect(count == 1 || mayBeRetried)
        #endif
    }

    @Test(
        arguments: ServingMode.allCases, [Throttle.chunks(count: 4, over: .milliseconds(400)), .bytesPerSecond(1_000)])
    func throttledBodyTakesItsTimeAndArrivesWhole(_ mode: ServingMode, _ throttle: Throttle) async throws {
        let registry = StubRegistry()
        let body = String(repeating: "0123456789", count: 40)
        try registry.register(StubResponse(text: body).throttled(throttle), for: .get("/dribble"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let start = ContinuousClock.now
            let received = try await client.send(Resource<String>.get("/dribble"))
            let elapsed = ContinuousClock.now - start
            #expect(received == body)
            #expect(elapsed >= .milliseconds(400) && elapsed < .milliseconds(400) + endlessWait, "\(elapsed)")
        }
    }

    @Test(arguments: ServingMode.allCases)
    func timeoutFaultEndsInTheClientsTimeout(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(.timeout), for: .get("/hang"))
        let outcome = try await withStubbedClient(
            mode, registry: registry, configuration: .init(timeout: .milliseconds(300))
        ) { client, _ in
            await Outcome.of(.get("/hang"), on: client, keeping: [])
        }
        #expect(outcome == .failure(.timedOut))
    }

    /// The hold is slept on the engine's clock in every serving, the server's included: nothing
    /// arrives until the test clock passes it (a year in-process, the configured hold on the
    /// server), and the exchange ends as soon as it has.
    @Test(arguments: ServingMode.allCases)
    func aTestClockControlsTheTimeoutFaultsHold(_ mode: ServingMode) async throws {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse.fault(.timeout), for: .get("/hang"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let finished = Mutex(false)
            let request = Task {
                let outcome = await Outcome.of(.get("/hang"), on: client, keeping: [])
                finished.withLock { $0 = true }
                return outcome
            }
            await waitUntilSleeping(clock, limit: endlessWait)
            #expect(!finished.withLock { $0 })
            let start = ContinuousClock.now
            await clock.advance(by: Delivery.untilTheClientGivesUp)
            guard case .failure(let category) = await request.value else {
                Issue.record("the held request got a response"); return
            }
            #expect(ContinuousClock.now - start < endlessWait)
            // In-process the hold ends in the timeout the client would have seen; the server
            // closes the connection at the end of its hold.
            if mode != .server { #expect(category == .timedOut) }
        }
    }

    /// The engine withholds the body of the answer to `HEAD`, throttled or unmatched too, and a
    /// server announces the length the `GET` would get.
    @Test(arguments: ServingMode.allCases)
    func headHasNoBody(_ mode: ServingMode) async throws {
        let registry = StubRegistry(clock: TestClock())
        let body = String(repeating: "0123456789", count: 40)
        try registry.register(
            StubResponse(text: body).throttled(.chunks(count: 4, over: .seconds(3600))), for: .any("/paced"))
        try registry.register(StubResponse(text: body), for: .any("/whole"))
        for target in ["/paced", "/whole", "/missing"] {
            let outcome = try await mode.exchange(registry, .head, target)
            #expect(outcome.status == (target == "/missing" ? 404 : 200), "\(target)")
            #expect(outcome.body.isEmpty, "\(target)")
            if mode == .server, target != "/missing" {
                #expect(outcome.headerFields[.contentLength] == "\(body.utf8.count)", "\(target)")
            }
        }
        #expect(registry.journal.entries.map(\.request.method) == [.head, .head, .head])
    }

    @Test(arguments: ServingMode.allCases)
    func cancellingTheCallerCancelsTheDelay(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(delay: .fixed(.seconds(600))), for: .get("/slow"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let request = Task { try await client.send(Resource<Void>.get("/slow")) }
            for _ in 0..<500 where registry.journal.totalCount == 0 { try await Task.sleep(for: .milliseconds(2)) }
            let start = ContinuousClock.now
            request.cancel()
            let error = await #expect(throws: APIError.self) { try await request.value }
            guard case .transport(let failure, _) = error else { Issue.record("expected a transport failure"); return }
            #expect(failure == .cancelled)
            #expect(ContinuousClock.now - start < endlessWait)
        }
    }

    @Test(arguments: ServingMode.allCases)
    func journalHoldsWhatArrived(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/orders"))
        try await withStubbedClient(mode, registry: registry) { client, _ in
            try await client.send(
                Resource<Void>.post("/orders", body: ["sku": "A-1"], headerFields: [.init("X-Trace")!: "t-9"]).header(
                    .accept, "application/json"))
        }
        let entry = try #require(registry.journal.entries.last)
        #expect(entry.request.method == .post)
        #expect(entry.request.target == "/orders")
        #expect(entry.request.headerFields[.init("X-Trace")!] == "t-9")
        #expect(entry.request.headerFields[.contentType] == "application/json")
        #expect(entry.request.bodyText == #"{"sku":"A-1"}"#)
        #expect(entry.status == .created)
    }

    /// `301` and `302` turn a `POST` into a body-less `GET`, `303` any method, `307` and `308`
    /// keep both; every hop is a request the journal records.
    @Test(arguments: ServingMode.allCases)
    func everyRedirectHopIsARequestOfItsOwn(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        let statuses = [301, 302, 303, 307, 308]
        for status in statuses {
            try registry.register(
                StubResponse(status: .init(code: status), headerFields: [.location: "/landed"]),
                for: .post("/\(status)"))
        }
        try registry.register(
            ClosureStub { StubResponse(text: "\($0.method) \($0.headerFields[.contentType] ?? "-") \($0.bodyText)") },
            for: .any("/landed"))
        let answers = try await withStubbedClient(mode, registry: registry) { client, _ in
            var answers: [String] = []
            for status in statuses {
                answers.append(try await client.send(Resource<String>.post("/\(status)", body: ["n": 1])))
            }
            return answers
        }
        #expect(
            answers == [
                "GET - ", "GET - ", "GET - ", #"POST application/json {"n":1}"#, #"POST application/json {"n":1}"#,
            ])
        let hops = registry.journal.entries.map { "\($0.request.method) \($0.request.target)" }
        #expect(hops == statuses.flatMap { ["POST /\($0)", $0 < 307 ? "GET /landed" : "POST /landed"] })
    }

    @Test(arguments: ServingMode.allCases)
    func redirectsLeftAloneWhenTheClientSaysSo(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .found, headerFields: [.location: "/new"], text: "moved"), for: .get("/old"))
        try registry.register(StubResponse(text: "here"), for: .get("/new"))
        let outcome = try await withStubbedClient(mode, registry: registry, configuration: .init(redirectLimit: nil)) {
            client, _ in
            await Outcome.of(.get("/old"), on: client, keeping: ["Location"])
        }
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation hands a completion handler an empty body for a redirect its
            // delegate refused, whatever the server sent.
            let body = mode == .server ? "" : "moved"
        #else
            let body = "moved"
        #endif
        #expect(outcome == .response(status: 302, headers: ["Location": "/new"], body: body))
        #expect(registry.journal.entries.map(\.request.target) == ["/old"])
    }

    @Test(arguments: ServingMode.allCases)
    func redirectsPastTheLimitFail(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .temporaryRedirect, headerFields: [.location: "/loop"]), for: .get("/loop"))
        let outcome = try await withStubbedClient(
            mode, registry: registry, configuration: .init(redirectLimit: 3)
        ) { client, _ in
            await Outcome.of(.get("/loop"), on: client, keeping: [])
        }
        #expect(outcome == .failure(.tooManyRedirects))
        #expect(registry.journal.totalCount == 4)
    }

    /// Each client has its own cookies, as each URLSession has: a server's are not a test's.
    @Test(arguments: ServingMode.allCases)
    func cookiesAreNotSharedBetweenClients(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(headerFields: [.setCookie: "session=abc; Path=/"]), for: .get("/login"))
        try registry.register(ClosureStub { StubResponse(text: $0.headerFields[.cookie] ?? "none") }, for: .get("/me"))
        let first = try await withStubbedClient(mode, registry: registry) { client, _ in
            try await client.send(Resource<Void>.get("/login"))
            return try await client.send(Resource<String>.get("/me"))
        }
        let second = try await withStubbedClient(mode, registry: registry) { client, _ in
            try await client.send(Resource<String>.get("/me"))
        }
        #expect([first, second] == ["session=abc", "none"])
    }

    @Test(arguments: ServingMode.allCases)
    func cookiesLeftAloneWhenTheClientSaysSo(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(headerFields: [.setCookie: "session=abc; Path=/"]), for: .get("/login"))
        try registry.register(ClosureStub { StubResponse(text: $0.headerFields[.cookie] ?? "none") }, for: .get("/me"))
        let seen = try await withStubbedClient(mode, registry: registry, configuration: .init(handlesCookies: false)) {
            client, _ in
            try await client.send(Resource<Void>.get("/login"))
            #expect(client.cookieStorage == nil)
            return try await client.send(Resource<String>.get("/me"))
        }
        #expect(seen == "none")
    }

    /// Half of its calls reset, the seed deciding which.
    static func flaky() -> FailingStub {
        FailingStub(
            failing: 0.5, with: StubResponse.fault(.connectionReset), otherwise: StubResponse(text: "ok"), seed: 5)
    }

    /// What a fresh ``flaky()`` answers to `count` calls, worked out without any serving.
    static func seededFailures(count: Int) -> [Outcome] {
        let stub = flaky()
        return (0..<count).map { _ in
            guard case .response(let response) = stub.resolve(for: StubRequest(method: .get, target: "/")) else {
                return .failure(.other)
            }
            return response.fault == nil ? .response(status: 200, headers: [:], body: "ok") : .failure(.connectionLost)
        }
    }

    /// What a `RandomStub` with this seed draws, worked out the way the engine draws it.
    static func seededDraws(seed: UInt64, faces: Int, count: Int) -> [String] {
        let stub = RandomStub((0..<faces).map { StubResponse(text: "\($0)") }, seed: seed)
        return (0..<count).map { _ in
            guard case .response(let response) = stub.resolve(for: StubRequest(method: .get, target: "/")) else {
                return ""
            }
            return String(decoding: response.body, as: UTF8.self)
        }
    }
}
