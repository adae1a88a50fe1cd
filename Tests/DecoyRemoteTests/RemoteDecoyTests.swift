import Decoy
import DecoyClient
import DecoyRemote
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RemoteDecoy` against a `MockServer` in this process, on an ephemeral port: what a UI test
/// does against `decoy serve`.
@Suite("RemoteDecoy")
struct RemoteDecoyTests {
    /// A stub kind, made fresh for each server (lists and sequences count their calls), with the
    /// requests that tell its answers apart.
    struct Kind: CustomTestStringConvertible, Sendable {
        let name: String
        let route: Route
        let make: @Sendable () throws -> any Stub
        var requests: [(target: String, headerFields: [String: String])] = (1...4).map { _ in ("/kind", [:]) }

        var testDescription: String { name }
    }

    static let kinds: [Kind] = [
        Kind(name: "StubResponse", route: .get("/kind")) {
            StubResponse(
                status: .created, headerFields: [HTTPField.Name("X-Trace")!: "t-1"], json: #"{"name": "Ada"}"#,
                delay: .fixed(.milliseconds(5))
            )
            .throttled(.chunks(count: 2, over: .milliseconds(10)))
        },
        Kind(name: "binary body", route: .get("/kind")) { StubResponse(body: Data([0x00, 0xFF, 0xFE])) },
        Kind(name: "fault", route: .get("/kind")) { StubResponse.fault(.connectionReset) },
        Kind(name: "AlternatingStub", route: .get("/kind")) {
            AlternatingStub([StubResponse(text: "a"), StubResponse(status: .serviceUnavailable, text: "b")])
        },
        Kind(
            name: "RandomStub", route: .get("/kind"),
            make: {
                RandomStub([StubResponse(text: "1"), StubResponse(text: "2"), StubResponse(text: "3")], seed: 42)
            },
            requests: (1...8).map { _ in ("/kind", [:]) }),
        Kind(name: "SequenceStub", route: .get("/kind")) {
            SequenceStub(first: [StubResponse(status: .serviceUnavailable)], then: StubResponse(text: "ok"))
        },
        Kind(
            name: "FailingStub", route: .get("/kind"),
            make: {
                FailingStub(
                    failing: 0.5, with: StubResponse(status: .internalServerError), otherwise: StubResponse(text: "ok"),
                    seed: 3)
            }, requests: (1...8).map { _ in ("/kind", [:]) }),
        Kind(
            name: "ConditionalStub", route: .get("/kind"),
            make: {
                try ConditionalStub(
                    when: [.header(.authorization, .present), .query("v", .equalTo("2"))],
                    then: StubResponse(text: "yes"), else: StubResponse(status: .unauthorized))
            },
            requests: [
                ("/kind?v=2", ["Authorization": "Bearer x"]), ("/kind?v=1", ["Authorization": "Bearer x"]),
                ("/kind?v=2", [:]),
            ]),
        Kind(name: "TemplateStub", route: .get("/kind")) {
            try TemplateStub(
                StubResponse(
                    headerFields: [HTTPField.Name("X-Seen")!: "{{request.query.v}}"], text: "{{request.url}} {{uuid}}"),
                seed: 4)
        },
        Kind(name: "EventStreamStub", route: .get("/kind")) {
            try EventStreamStub(
                events: [
                    ServerEvent(id: "1", event: "tick", data: "one", delay: .fixed(.milliseconds(5))),
                    ServerEvent(json: ["n": 2], retry: .seconds(1), comment: "two"),
                ], repeats: .times(2))
        },
        Kind(name: "an event stream in a sequence", route: .get("/kind")) {
            SequenceStub(
                first: [StubResponse(status: .serviceUnavailable)],
                then: try EventStreamStub(events: [ServerEvent(data: "one")], repeats: .times(2)))
        },
        Kind(
            name: "route matchers, priority and url",
            route: Route(method: .get, path: "/kind", pathSyntax: .exact).target(.equalTo("/kind?v=2")).header(
                .accept, .contains("json")
            ).priority(1)
        ) {
            StubResponse(text: "matched")
        },
    ]

    @Test("a stub registered remotely answers as registered in code", arguments: kinds)
    func answersAsInCode(_ kind: Kind) async throws {
        let inCode = StubRegistry()
        try inCode.register(try kind.make(), for: kind.route)
        try await withMockServer(registry: inCode) { local in
            try await withRemote { decoy, remote in
                try await decoy.register(try kind.make(), for: kind.route)
                let requests = kind.requests + [("/kind?v=2", ["Accept": "application/json"])]
                var answered = 0
                for (target, fields) in requests {
                    let expected = await outcome(local, .get, target, headerFields: fields)
                    let actual = await outcome(remote, .get, target, headerFields: fields)
                    #expect(actual == expected, "\(kind.name) \(target)")
                    if actual.status != 404 { answered += 1 }
                }
                #expect(answered > 0, "\(kind.name) never answered")
            }
        }
    }

    @Test("a closure is refused before anything is sent, naming it")
    func closureIsRefused() async throws {
        let registry = StubRegistry()
        try await withRemote(registry) { decoy, _ in
            let error = await #expect(throws: DecoyError.self) {
                try await decoy.register(
                    SequenceStub(first: [ClosureStub { _ in StubResponse() }], then: StubResponse()), for: .get("/live")
                )
            }
            #expect(error?.description.hasPrefix("SequenceStub › responses[0] › ClosureStub cannot") == true)
            #expect(registry.mappings.isEmpty)
        }
    }

    @Test("the server's refusal carries its titles and pointers")
    func serverRefusal() async throws {
        try await withRemote { decoy, _ in
            let error = await #expect(throws: DecoyError.self) {
                try await decoy.register(StubResponse(), for: .get(matching: "(unclosed"))
            }
            guard case .refusedByServer(let request, let status, let problems)? = error else {
                Issue.record("not a server's refusal: \(String(describing: error))")
                return
            }
            #expect(status == 422)
            #expect(request == "POST /__admin/mappings")
            #expect(problems.first?.hasPrefix("/request/urlPathPattern: ") == true)
            #expect(problems.first?.count ?? 0 > "/request/urlPathPattern: ".count)
        }
    }

    @Test("remove, reset and resetJournal")
    func removeAndReset() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "from code"), for: .get("/kept"))
        try await withRemote(registry) { decoy, server in
            let added = try await decoy.register(StubResponse(text: "remote"), for: .get("/added"))
            let other = try await decoy.register(StubResponse(text: "other"), for: .get("/other"))
            #expect(await outcome(server, .get, "/added").body == "remote")
            try await decoy.remove(added)
            #expect(await outcome(server, .get, "/added").status == 404)
            await #expect(throws: DecoyError.self) { try await decoy.remove(added) }
            #expect(try await decoy.journal().entries.count == 2)
            try await decoy.resetJournal()
            #expect(try await decoy.journal().entries.isEmpty)

            _ = await outcome(server, .get, "/other")
            try await decoy.reset()
            #expect(await outcome(server, .get, "/other").status == 404)
            #expect(await outcome(server, .get, "/kept").body == "from code")
            #expect(other.route == .get("/other"))
            #expect(try await decoy.journal().entries.count == 2)
        }
    }

    @Test("scenario state, set from the test")
    func scenarioState() async throws {
        try await withRemote { decoy, server in
            try await decoy.register(
                StubResponse(text: "empty"),
                for: Route.get("/cart").scenario("check out", requiredState: Scenario.started))
            try await decoy.register(
                StubResponse(text: "filled"), for: Route.get("/cart").scenario("check out", requiredState: "filled"))
            #expect(await outcome(server, .get, "/cart").body == "empty")
            try await decoy.setScenarioState("check out", to: "filled")
            #expect(await outcome(server, .get, "/cart").body == "filled")
            try await decoy.resetScenarios()
            #expect(await outcome(server, .get, "/cart").body == "empty")
            let error = await #expect(throws: DecoyError.self) {
                try await decoy.setScenarioState("no such", to: "x")
            }
            #expect(
                error
                    == .refusedByServer(
                        request: "PUT /__admin/scenarios/no%20such/state", status: 404,
                        problems: [#"No stub takes part in the scenario "no such"."#]))
        }
    }

    @Test("a webhook registered remotely is sent by the server")
    func webhook() async throws {
        let receiver = StubRegistry()
        let registry = StubRegistry()
        registry.webhookTransport = StubTransport(receiver)
        try await withRemote(registry) { decoy, server in
            let webhook = try Webhook(
                .post, url: "http://127.0.0.1/callbacks/{{originalRequest.path.[1]}}", body: "shipped")
            try await decoy.register(StubResponse(text: "ok"), for: Route.get("/orders/{id}").webhook(webhook))
            #expect(registry.mappings.first?.route.webhooks == [webhook])
            #expect(await outcome(server, .get, "/orders/5").body == "ok")
            for _ in 0..<2_000 where receiver.journal.entries.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
            #expect(receiver.journal.entries.map(\.request.target) == ["/callbacks/5"])
            #expect(receiver.journal.entries.first?.request.bodyText == "shipped")
        }
    }

    @Test("a reset brings back what the server started with: its stubs, an empty journal, its scenarios and delay")
    func resetRestoresTheStartingState() async throws {
        let registry = StubRegistry(defaultDelay: .fixed(.milliseconds(30)))
        try registry.register(
            StubResponse(text: "welcome"), for: Route.get("/onboarding").scenario("onboarding", requiredState: "done"))
        try await withRemote(registry) { decoy, server in
            try await decoy.register(StubResponse(text: "added"), for: .get("/added"))
            try await decoy.setScenarioState("onboarding", to: "done")
            try await decoy.setGlobalDelay(.zero)
            _ = await outcome(server, .get, "/added")

            try await decoy.reset()
            #expect(registry.defaultDelay == .fixed(.milliseconds(30)))
            #expect(registry.scenarioState("onboarding") == Scenario.started)
            #expect(try await decoy.journal().entries.isEmpty)
            #expect(await outcome(server, .get, "/added").status == 404)
            // WireMock's own reset, over the admin API, keeps the global delay as WireMock's does.
            try await decoy.setGlobalDelay(.zero)
            var request = URLRequest(url: server.baseURL.appending(path: "__admin/reset"))
            request.httpMethod = "POST"
            _ = try await URLSession(configuration: .ephemeral).data(for: request)
            #expect(registry.defaultDelay == Delay.none)
        }
    }

    @Test("a global delay holds answers")
    func globalDelay() async throws {
        let registry = StubRegistry()
        try await withRemote(registry) { decoy, _ in
            try await decoy.setGlobalDelay(.milliseconds(40))
            #expect(registry.defaultDelay == .fixed(.milliseconds(40)))
            try await decoy.setGlobalDelay(.zero)
            #expect(registry.defaultDelay == Delay.none)
            await #expect(throws: DecoyError.self) { try await decoy.setGlobalDelay(.microseconds(1500)) }
        }
    }

    @Test("an expectation counts on the server and fails with the in-process message")
    func expectationsCountOnTheServer() async throws {
        try await withRemote { decoy, server in
            try await decoy.register(StubResponse(status: .created), for: .post("/users"))
            _ = await outcome(server, .post, "/users")
            _ = await outcome(server, .post, "/user")
            #expect(try await decoy.count(of: .post("/users")) == 1)
            #expect(try await decoy.count(of: Route.any("/**")) == 2)
            #expect(try await awaitedFailureMessages { try await decoy.expect(.post("/users"), count: .once) }.isEmpty)
            #expect(try await awaitedFailureMessages { try await decoy.expectNoRequests(to: .get("/users")) }.isEmpty)
            let remote = try await awaitedFailureMessages {
                try await decoy.expect(.post("/users"), count: .exactly(2))
            }
            let local = failureMessages { server.expect(.post("/users"), count: .exactly(2)) }
            #expect(remote == local)
            #expect(remote.first?.contains("Near misses") == true)
            let unmatched = try await awaitedFailureMessages { try await decoy.expectNoUnmatchedRequests() }
            #expect(unmatched == failureMessages { server.expectNoUnmatchedRequests() })
            #expect(unmatched.count == 1)
        }
    }

    @Test("the journal reads as in-process, with the same messages and near misses")
    func journal() async throws {
        try await withRemote { decoy, server in
            try await decoy.register(StubResponse(status: .created), for: .post("/users"))
            try await decoy.register(StubResponse.fault(.emptyResponse), for: .get("/broken"))
            _ = await outcome(server, .post, "/users")
            _ = await outcome(server, .post, "/user")
            _ = await outcome(server, .put, "/users")
            _ = await outcome(server, .get, "/broken")
            let journal = try await decoy.journal()
            #expect(journal.entries.map(\.sequence) == server.journal.entries.map(\.sequence))
            #expect(journal.entries.map(\.description) == server.journal.entries.map(\.description))
            #expect(journal.entries.map(\.route) == server.journal.entries.map(\.route))
            #expect(journal.expect(.post("/users"), count: .once).map(\.sequence) == [1])

            // The same but for the dashboard's address, which only a running server has.
            let dashboard = "\nSee every request, and why one did not match, at \(server.baseURL)/__admin/dashboard"
            let remote = failureMessages { journal.expect(.post("/users"), count: .exactly(2)) }
            let local = failureMessages { server.expect(.post("/users"), count: .exactly(2)) }
            #expect(remote.map { $0 + dashboard } == local)
            #expect(remote.first?.contains("Near misses") == true)
            #expect(
                remote.first?.contains(
                    #"2. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users""#) == true)
            let unmatched = failureMessages { journal.expectNoUnmatchedRequests() }
            #expect(unmatched.count == 1)
            #expect(unmatched.map { $0 + dashboard } == failureMessages { server.expectNoUnmatchedRequests() })
            #expect(throws: DecoyError.self) { try journal.verify(.get("/broken"), count: .never) }
        }
    }

    @Test("a token protects the admin API")
    func token() async throws {
        try await withRemote(access: .token("s3cret"), token: "s3cret") { decoy, server in
            try await decoy.register(StubResponse(text: "ok"), for: .get("/t"))
            #expect(await decoy.isHealthy())
            let stranger = RemoteDecoy(baseURL: server.baseURL)
            let error = await #expect(throws: DecoyError.self) { try await stranger.reset() }
            guard case .refusedByServer(_, let status, _)? = error else {
                Issue.record("not a server's refusal: \(String(describing: error))")
                return
            }
            #expect(status == 401)
            #expect(await stranger.isHealthy() == false)
        }
    }

    @Test("a server that does not answer is a DecoyError whose cause is the URLError")
    func unreachable() async throws {
        let server = MockServer(registry: StubRegistry())
        try server.start()
        let gone = server.baseURL
        server.stop()
        let error = await #expect(throws: DecoyError.self) { try await RemoteDecoy(baseURL: gone).reset() }
        guard case .serverUnreachable(let request, let cause)? = error else {
            Issue.record("not an unreachable server: \(String(describing: error))")
            return
        }
        #expect(request == "POST /__admin/reset")
        #expect(cause.code == .cannotConnectToHost)
    }

    @Test("a proxy stub crosses the process boundary as proxyBaseUrl")
    func proxy() async throws {
        let upstreamRegistry = StubRegistry()
        try upstreamRegistry.register(StubResponse(text: "from upstream"), for: .get("/real"))
        try await withMockServer(registry: upstreamRegistry) { upstream in
            try await withRemote { decoy, server in
                try await decoy.register(
                    ProxyStub(to: upstream.baseURL, responseHeaders: [HTTPField.Name("X-Via")!: "decoy"]),
                    for: .get("/real"))
                #expect(await outcome(server, .get, "/real").body == "from upstream")
                #expect(upstreamRegistry.journal.entries.count == 1)
            }
        }
    }

    @Test("a resource registers for its method, path and query")
    func resource() async throws {
        try await withRemote { decoy, server in
            let resource = Resource<String>(
                method: .get, path: "/search", query: [URLQueryItem(name: "q", value: "swift")])
            try await decoy.register(StubResponse(text: "found"), for: resource)
            #expect(await outcome(server, .get, "/search?q=swift").body == "found")
            #expect(await outcome(server, .get, "/search?q=go").status == 404)
        }
    }
}
