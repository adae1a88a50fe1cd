import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Routing")
struct RoutingTests {
    /// A target equal to a text, as a stub file's `url` writes it, is compared as sent: a query,
    /// an empty one, or an escape the path decodes away each miss; ignoring case takes the
    /// matcher's own way and still reads the whole target.
    @Test func targetEqualToComparesTheTargetAsSent() throws {
        let exact = try RequestPattern(Route(method: .get, exactPath: "/items/0").target(.equalTo("/items/0")))
        #expect(exact.matches(StubRequest(method: .get, target: "/items/0")))
        for target in ["/items/0?", "/items/0?page=2", "/items/%30"] {
            #expect(!exact.matches(StubRequest(method: .get, target: target)), "\(target)")
        }
        let anyCase = try RequestPattern(
            Route(method: .get, exactPath: "/items/0").target(.equalTo("/ITEMS/0", caseInsensitive: true)))
        #expect(anyCase.matches(StubRequest(method: .get, target: "/items/0")))
        #expect(!anyCase.matches(StubRequest(method: .get, target: "/items/0?page=2")))
    }

    @Test func templatesWildcardsRestsAndExpressions() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "template"), for: .get("/users/{id}"))
        // Specificity is not guessed: the literal wins here only because it is newer.
        try registry.register(StubResponse(text: "literal"), for: .get("/users/me"))
        try registry.register(StubResponse(text: "wildcard"), for: .get("/users/*/orders"))
        try registry.register(StubResponse(text: "rest"), for: .get("/files/**"))
        try registry.register(StubResponse(text: "expression"), for: .get(matching: #"/reports/\d{4}"#))
        for (target, expected) in [
            ("/users/me", "literal"), ("/users/42", "template"), ("/users/42/orders", "wildcard"),
            ("/files/a/b/c.txt", "rest"), ("/files", "rest"), ("/reports/2026", "expression"),
        ] {
            #expect(try await ServingMode.inProcess.exchange(registry, .get, target).text == expected, "\(target)")
        }
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/reports/20x6").status == 404)
    }

    /// Expressions are tried only for paths through the plain segments they start with, so each of
    /// these, whose plain start is easy to misread, must still match.
    @Test(arguments: [
        (#"/a/b|/c/d"#, "/c/d"), (#"/users?/7"#, "/user/7"), (#"(?i)/Admin/[0-9]+"#, "/admin/1"),
        (#"/files/(x|y)/[a-z]+"#, "/files/y/z"), (#"^/tpl/[0-9]+"#, "/tpl/12"), (#"/api/.*"#, "/api/"),
    ])
    func anExpressionMatchesWhereverItsTextsCanStart(_ expression: String, _ target: String) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "elsewhere"), for: .get("/stub"))
        try registry.register(StubResponse(text: "expression"), for: .get(matching: expression))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, target).text == "expression")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/stub").text == "elsewhere")
    }

    /// The same for an expression on the whole target (WireMock's `urlPattern`), which reads the
    /// target as sent while the routes are found by the path decoded.
    @Test(arguments: [
        (#"/api/orders\?page=[0-9]+"#, "/api/orders?page=2"), (#"/caf%C3%A9/[0-9]+"#, "/caf%C3%A9/1"),
        (#"/a|/b/c"#, "/b/c"), (#"/search/[a-z]+\?q=.*"#, "/search/all?q=1"),
    ])
    func aTargetExpressionMatchesWhereverItsTextsCanStart(_ expression: String, _ target: String) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "elsewhere"), for: .get("/stub"))
        try registry.register(
            StubResponse(text: "expression"),
            for: Route(method: .get, path: "/**", matchers: [.target(.matches(expression))]))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, target).text == "expression")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/stub").text == "elsewhere")
    }

    /// WireMock's choice among equal priorities, the newest, holds between an exact route and an
    /// expression, whichever is newer.
    @Test func theNewerOfAnExactRouteAndAnExpressionWins() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "exact"), for: .get("/orders/1"))
        let expression = try registry.register(StubResponse(text: "expression"), for: .get(matching: "/orders/[0-9]+"))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/orders/1").text == "expression")
        registry.remove(expression)
        try registry.register(StubResponse(text: "expression"), for: .get(matching: "/orders/[0-9]+"))
        try registry.register(StubResponse(text: "exact again"), for: .get("/orders/1"))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/orders/1").text == "exact again")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/orders/2").text == "expression")
    }

    @Test func percentEncodedPathsMatchTheirDecodedTemplate() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "found"), for: .get("/people/Ada Lovelace"))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/people/Ada%20Lovelace").text == "found")
    }

    @Test func priorityWinsThenTheMostRecent() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "old"), for: .get("/items/{id}"))
        try registry.register(StubResponse(text: "new"), for: .get("/items/{id}"))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/items/1").text == "new")
        try registry.register(StubResponse(text: "preferred"), for: Route.get("/items/*").priority(1))
        try registry.register(StubResponse(text: "newest, default priority"), for: .get("/items/1"))
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/items/1").text == "preferred")
    }

    @Test func matchersOnQueryHeadersAndBody() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "anonymous"), for: Route.get("/list").header(.authorization, .absent))
        try registry.register(StubResponse(text: "page 2"), for: Route.get("/list").query("page", .equalTo("2")))
        try registry.register(
            StubResponse(text: "json"),
            for: Route.post("/list").header(.contentType, .contains("json")).body(.matches(#"\{.*"sku".*\}"#)))
        let serving = ServingMode.inProcess
        #expect(try await serving.exchange(registry, .get, "/list?page=2").text == "page 2")
        #expect(try await serving.exchange(registry, .get, "/list?page=3").text == "anonymous")
        #expect(
            try await serving.exchange(registry, .get, "/list?page=3", headerFields: [.authorization: "x"]).status
                == 404)
        #expect(
            try await serving.exchange(
                registry, .post, "/list", headerFields: [.contentType: "application/json"],
                body: Data(#"{"sku": 1}"#.utf8)
            ).text == "json")
        #expect(
            try await serving.exchange(
                registry, .post, "/list", headerFields: [.contentType: "text/plain"], body: Data(#"{"sku": 1}"#.utf8)
            ).status == 404)
    }

    @Test func registeringForAResourceUsesItsMethodPathAndQuery() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), for: Resource<[Int]>.get("/search", query: ["q": "swift"]))
        let client = try ServingMode.inProcess.client(registry)
        #expect(try await client.send(Resource<[Int]>.get("/search", query: ["q": "swift"])) == [])
        await #expect(throws: APIError.self) {
            try await client.send(Resource<[Int]>.get("/search", query: ["q": "rust"]))
        }
    }

    /// A resource for another host, its whole URL as its path, routes by the URL's path and query.
    @Test func registeringForAWholeURLUsesItsPathAndQuery() async throws {
        let registry = StubRegistry()
        let search = Resource<[Int]>.get("https://search.example.com/v1/search?q=swift")
        try registry.register(StubResponse(json: "[7]"), for: search)
        #expect(Route(search).path == "/v1/search")
        let client = try ServingMode.inProcess.client(registry)
        #expect(try await client.send(search) == [7])
        await #expect(throws: APIError.self) {
            try await client.send(Resource<[Int]>.get("https://search.example.com/v1/search?q=rust"))
        }
    }

    @Test func removingByHandle() async throws {
        let registry = StubRegistry()
        let template = try registry.register(StubResponse(text: "template"), for: .get("/a/{x}"))
        let literal = try registry.register(StubResponse(text: "literal"), for: .get("/a/b"))
        let expression = try registry.register(StubResponse(text: "expression"), for: .get(matching: "/z.*"))
        #expect(registry.routes.count == 3)
        registry.remove(literal)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/a/b").text == "template")
        registry.remove(template)
        registry.remove(template)
        registry.remove(expression)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/a/b").status == 404)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/zz").status == 404)
        #expect(registry.routes.isEmpty)
    }

    @Test(arguments: [
        ("users", #"invalid route path "users": a path must start with "/""#),
        ("/users/{id", #"invalid route path "/users/{id": unbalanced braces in segment "{id""#),
        ("/users/id}", #"invalid route path "/users/id}": unbalanced braces in segment "id}""#),
        (
            "/users/x{id}",
            #"""
            invalid route path "/users/x{id}": a template parameter must be a whole segment, as in "{id}", not \#
            "x{id}"
            """#
        ),
        (
            "/users/{}",
            #"invalid route path "/users/{}": a template parameter needs a name of letters, digits and "_", not "{}""#
        ),
        ("/files/**/x", #"invalid route path "/files/**/x": "**" may only be the last segment"#),
    ])
    func invalidRoutesAreRefusedWithAClearError(_ path: String, _ message: String) throws {
        let error = #expect(throws: DecoyError.self) { try StubRegistry().register(StubResponse(), for: .get(path)) }
        #expect(error?.description == message)
    }

    @Test func invalidExpressionIsRefused() throws {
        let error = #expect(throws: DecoyError.self) {
            try StubRegistry().register(StubResponse(), for: .get(matching: "/("))
        }
        #expect(error?.description == #"invalid route path "/(": "/(" is not a valid regular expression"#)
    }

    @Test(arguments: ServingMode.allCases)
    func unmatchedRequestGets404NamingTheClosestRoutes(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/users/{id}/orders"))
        try registry.register(StubResponse(), for: .post("/users/{id}/order"))
        try registry.register(StubResponse(), for: Route.get("/users/{id}/order").query("page", .equalTo("1")))
        try registry.register(StubResponse(), for: .get("/health"))
        let exchange = try await serving.exchange(registry, .get, "/users/7/order?page=2")
        #expect(exchange.status == 404)
        #expect(exchange.headerFields[.decoyUnmatched] == "true")
        #expect(
            exchange.text == """
                No stub matches GET /users/7/order?page=2.
                Closest routes:
                  - GET /users/{id}/orders: path segment 3 is "order", the route expects "orders"
                  - POST /users/{id}/order: the method is GET, the route expects POST
                  - GET /users/{id}/order where query "page" equal to "1": query "page": expected equal to "1", got "2"

                """)
        #expect(registry.journal.unmatchedEntries.map(\.request.target) == ["/users/7/order?page=2"])
    }

    /// The closest routes are ranked by every difference: a route with the request's method and
    /// number of segments, one segment off, comes before routes whose only segment differs and
    /// whose length does too, however early those were registered; among those, the segment
    /// fewest letters away (`feed` and `me` three, `status` five) and then the earliest.
    @Test(arguments: ServingMode.allCases)
    func unmatchedListsTheRouteATypoMissed(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        for path in ["/status", "/feed", "/me", "/users/{id}"] {
            try registry.register(StubResponse(), for: .get(path))
        }
        try registry.register(StubResponse(), for: .post("/user/{id}"))
        let exchange = try await serving.exchange(registry, .get, "/user/42")
        #expect(
            exchange.text == """
                No stub matches GET /user/42.
                Closest routes:
                  - GET /users/{id}: path segment 1 is "user", the route expects "users"
                  - POST /user/{id}: the method is GET, the route expects POST
                  - GET /feed: path segment 1 is "user", the route expects "feed"; the route expects 1 path segments, \
                the request has 2

                """)
    }

    /// Registries with the same stubs in the same order answer an unmatched request with the same
    /// body in every serving, however their hash tables happen to be laid out.
    @Test func unmatchedBodyIsTheSameForTheSameStubs() async throws {
        func registry() throws -> StubRegistry {
            let registry = StubRegistry()
            for index in 0..<200 {
                try registry.register(
                    StubResponse(), for: .get("/\(["items", "users", "orders", "carts"][index % 4])/\(index)"))
                try registry.register(StubResponse(), for: .post("/\(["a", "b", "c"][index % 3])/{id}/part\(index)"))
            }
            return registry
        }
        for target in ["/nothing/here", "/items/x", "/b/7/part", "/users"] {
            var bodies: Set<String> = []
            for serving in ServingMode.allCases {
                for _ in 0..<4 { bodies.insert(try await serving.exchange(try registry(), .get, target).text) }
            }
            #expect(bodies.count == 1, "\(target): \(bodies.sorted())")
        }
    }

    /// Routes equally near are listed in the order they were registered.
    @Test func equallyNearRoutesKeepTheirRegistrationOrder() async throws {
        let registry = StubRegistry()
        for index in 0..<10_000 {
            try registry.register(StubResponse(), for: .get("/stub/\(index)"))
        }
        let exchange = try await ServingMode.inProcess.exchange(registry, .get, "/stub/x/y")
        #expect(
            exchange.text == """
                No stub matches GET /stub/x/y.
                Closest routes:
                  - GET /stub/0: path segment 2 is "x", the route expects "0"; the route expects 2 path segments, the \
                request has 3
                  - GET /stub/1: path segment 2 is "x", the route expects "1"; the route expects 2 path segments, the \
                request has 3
                  - GET /stub/2: path segment 2 is "x", the route expects "2"; the route expects 2 path segments, the \
                request has 3

                """)
    }

    /// A repeated unmatched request may get the 404 made for it before, but never a stale one:
    /// not after the routes change, nor when a near route looks at what the request line does not show.
    @Test func aRepeatedUnmatchedRequestSeesTheRoutesAsTheyAreNow() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/orders"))
        let before = try await ServingMode.inProcess.exchange(registry, .get, "/user/42").text
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/user/42").text == before)
        let handle = try registry.register(StubResponse(), for: .get("/users/{id}"))
        #expect(
            try await ServingMode.inProcess.exchange(registry, .get, "/user/42").text.contains(
                "  - GET /users/{id}: path segment 1"))
        registry.remove(handle)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/user/42").text == before)

        try registry.register(
            StubResponse(), for: Route.get("/user/{id}").header(.accept, .equalTo("application/json")))
        let plain = try await ServingMode.inProcess.exchange(
            registry, .get, "/user/42", headerFields: [.accept: "text/plain"]
        ).text
        let html = try await ServingMode.inProcess.exchange(
            registry, .get, "/user/42", headerFields: [.accept: "text/html"]
        ).text
        #expect(plain.contains(#"got "text/plain""#))
        #expect(html.contains(#"got "text/html""#))
    }

    /// A 404 is kept, with the servings' encodings of it, only for a request line asked for again:
    /// one of many distinct targets is made to be served once and leaves nothing behind.
    @Test func onlyARepeatedUnmatchedRequestKeepsItsNotFound() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(), for: .get("/orders"))
        let engine = StubEngine(provider: registry)
        let request = StubRequest(method: .get, target: "/user/42")
        let first = try await engine.answer(request)
        let second = try await engine.answer(request)
        let third = try await engine.answer(request)
        #expect(first.cache == nil)
        #expect(second.cache != nil)
        #expect(third.cache === second.cache)
        #expect(first.body == second.body && third.body == second.body)
        #expect(try await engine.answer(StubRequest(method: .get, target: "/user/43")).cache == nil)
    }

    @Test func aMemoTellsAKeyAskedForAgain() {
        let memo = BoundedMemo<String, Int>(capacity: 2)
        #expect(memo.lookUp("a") == (nil, false))
        #expect(memo.lookUp("a") == (nil, true))
        #expect(memo.lookUp("b") == (nil, false))
        memo.keep(1, for: "a")
        #expect(memo.lookUp("a") == (1, true))
    }

    @Test func unmatchedWithNothingRegisteredSaysSo() async throws {
        let exchange = try await ServingMode.inProcess.exchange(StubRegistry(), .get, "/anything")
        #expect(exchange.text == "No stub matches GET /anything.\nNo registered route comes close.\n")
    }

    @Test func lookupAmongTenThousandRoutesFindsEachKind() async throws {
        let registry = StubRegistry()
        for index in 0..<10_000 {
            try registry.register(
                StubResponse(text: "\(index)"),
                for: .get(index.isMultiple(of: 2) ? "/items/\(index)" : "/items/\(index)/{part}"))
        }
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/items/0").text == "0")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/items/9999/x").text == "9999")
        let miss = try await ServingMode.inProcess.exchange(registry, .get, "/items/10001")
        #expect(miss.status == 404)
        #expect(miss.text.contains("Closest routes:"))
    }

    @Test func customProviderServesThroughTheEngine() async throws {
        struct Everything: StubProvider {
            func stub(for request: StubRequest) -> (any Stub)? {
                request.path == "/missing" ? nil : StubResponse(text: "custom \(request.path)")
            }
        }
        let engine = StubEngine(provider: Everything())
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(engine: engine))
        #expect(try await client.send(Resource<String>.get("/x")) == "custom /x")
        let missing = try await StubTransport(provider: Everything()).send(
            HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/missing"), body: nil)
        #expect(missing.0.status == .notFound)
        #expect(engine.journal.totalCount == 1)
    }
}
