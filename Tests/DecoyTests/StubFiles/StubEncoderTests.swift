import Foundation
import HTTPTypes
import Testing

@testable import Decoy
@testable import DecoyStubFiles

/// The stub-file encoder against the decoders it inverts: a stub file read and written back is
/// the same document, and a stub written and read back answers as the stub did.
@Suite("Stub files: encoding")
struct StubEncoderTests {
    /// Stub-file documents in the form the encoder writes, one for each field it writes.
    static let documents: [String] = [
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/users/{id}"}, "response": {"status": 200, \#
        "statusMessage": "OK", "headers": {"Content-Type": "application/json", "Set-Cookie": ["a=1", "b=2"]}, \#
        "body": "{\"name\": \"Ada\"}"}}
        """#,
        #"""
        {"request": {"method": "ANY", "urlPathPattern": "/files/[a-z]+\\.txt"}, "response": {"status": 201, \#
        "base64Body": "AP/+", "fixedDelayMilliseconds": 250}}
        """#,
        #"""
        {"request": {"method": "POST", "urlPath": "/{literal}"}, "response": {"status": 503, \#
        "delayDistribution": {"type": "uniform", "lower": 10, "upper": 30}, "chunkedDribbleDelay": \#
        {"numberOfChunks": 4, "totalDuration": 400}}}
        """#,
        #"""
        {"request": {"method": "GET", "url": "/search?q=swift"}, "response": {"status": 200, \#
        "delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4}, "bytesPerSecond": 2048}}
        """#,
        #"""
        {"request": {"method": "GET", "urlPattern": "/reports/.*"}, "response": {"status": 200, "fault": "TIMEOUT"}}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/faults"}, "response": {"status": 200, "fault": \#
        "CONNECTION_RESET_BY_PEER"}, "priority": 1}
        """#,
        #"""
        {"request": {"method": "POST", "urlPathTemplate": "/orders",
                     "queryParameters": {"a": {"equalTo": "1", "caseInsensitive": true}, "b": {"absent": true}, "c": \#
        {"absent": false}},
                     "headers": {"X-Mode": {"matches": "f.*"}, "X-Other": {"doesNotMatch": "x"}},
                     "cookies": {"session": {"contains": "abc"}, "theme": {"doesNotContain": "dark"}},
                     "formParameters": {"email": {"contains": "@"}},
                     "bodyPatterns": [
                         {"equalToJson": "{\"sku\": \"A-1\"}", "ignoreArrayOrder": true, "ignoreExtraElements": true},
                         {"matchesJsonPath": "$.sku"},
                         {"matchesJsonPath": {"expression": "$.items[?(@.sku == 'A-1')]", "equalTo": "x", \#
        "caseInsensitive": true}},
                         {"matchesXPath": {"expression": "/order/sku", "contains": "A"}},
                         {"and": [{"contains": "a"}, {"or": [{"contains": "b"}, {"not": {"contains": "c"}}]}]}
                     ]},
         "response": {"status": 201},
         "scenarioName": "checkout", "requiredScenarioState": "Started", "newScenarioState": "ordered"}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/a"}, "responses": [{"status": 200}, {"status": 503}], \#
        "mode": "alternating"}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/r"}, "responses": [{"status": 200}, {"status": 503}], \#
        "mode": "random", "seed": 7}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/s"}, "responses": [{"status": 503}, {"status": 200}], \#
        "mode": "sequence"}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/f"}, "response": {"status": 200}, "failureRate": 0.3, \#
        "failure": {"status": 500}, "seed": 11}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/fr"}, "responses": [{"status": 200}, {"status": \#
        202}], "mode": "random", "seed": 5, "failureRate": 0.5, "failure": {"status": 500, "fault": \#
        "EMPTY_RESPONSE"}}
        """#,
        #"""
        {"request": {"method": "GET", "urlPathTemplate": "/c"}, "when": {"headers": {"Authorization": {"absent": \#
        false}}, "queryParameters": {"v": {"equalTo": "2"}}}, "response": {"status": 200}, "else": {"status": 401}}
        """#,
    ]

    @Test("a stub file read and written back is the same document", arguments: documents)
    func fileRoundTrip(_ document: String) throws {
        let definition = try StubDocument.stub(Data(document.utf8), source: "test", folder: nil).get()
        let written = try StubEncoder.mapping(definition.stub, for: definition.pattern.route)
        #expect(JSONValue.object(written) == JSONValue(parsing: document))
    }

    /// Stubs made in code, each with requests that tell its answers apart.
    static let stubs: [(name: String, stub: any Stub, route: Route)] = [
        (
            "response",
            StubResponse(
                status: .created,
                headerFields: [.contentType: "text/plain", .setCookie: "a=1", HTTPField.Name("Set-Cookie")!: "b=2"],
                text: "hi", delay: .fixed(.milliseconds(20))
            ).throttled(.chunks(count: 2, over: .milliseconds(10))), .get("/users/{id}")
        ),
        ("binary body", StubResponse(body: Data([0xEF, 0xBB, 0xBF, 0x41])), .any("/bom")),
        (
            "fault", StubResponse.fault(.randomDataThenClose),
            Route(method: .get, path: "/users", pathSyntax: .exact).target(.equalTo("/users?page=2"))
        ),
        (
            "alternating", AlternatingStub([StubResponse(status: .ok), StubResponse(status: .accepted)]),
            Route.post("/orders").priority(2).scenario("s", requiredState: "Started")
        ),
        (
            "random",
            RandomStub(
                [StubResponse(status: .ok), StubResponse(status: .accepted), StubResponse(status: .noContent)], seed: 42
            ), .get("/random")
        ),
        (
            "sequence",
            SequenceStub(first: [StubResponse(status: .serviceUnavailable)], then: StubResponse(status: .ok)),
            .get("/retry")
        ),
        (
            "failing",
            FailingStub(
                failing: 0.5, with: StubResponse(status: .internalServerError), otherwise: StubResponse(status: .ok),
                seed: 3), .get("/flaky")
        ),
        (
            "failing random",
            FailingStub(
                failing: 0.5, with: StubResponse(status: .internalServerError),
                otherwise: RandomStub([StubResponse(status: .ok), StubResponse(status: .accepted)], seed: 9),
                seed: 9 ^ StubFileFormat.failureSeedMix), .get("/flaky-random")
        ),
        (
            "conditional",
            try! ConditionalStub(
                when: [.query("v", .equalTo("2"))], then: StubResponse(status: .ok),
                else: StubResponse(status: .badRequest)), Route.get("/c").header(.accept, .contains("json"))
        ),
    ]

    static let requests = (1...12).map { StubRequest(method: .get, target: $0.isMultiple(of: 2) ? "/c?v=2" : "/c?v=1") }

    @Test("a stub written and read back answers as the stub did", arguments: stubs.indices)
    func codeRoundTrip(_ index: Int) throws {
        let (name, original, route) = Self.stubs[index]
        let data = try JSONEncoder().encode(JSONValue.object(try StubEncoder.mapping(original, for: route)))
        let definition = try StubDocument.stub(data, source: "test", folder: nil).get()
        #expect(definition.pattern.route == route, "\(name)")
        for request in Self.requests {
            let (expected, actual) = (Self.answer(original, request), Self.answer(definition.stub, request))
            #expect(expected == actual, "\(name)")
        }
    }

    /// What a stub answers, as the fields that travel: comparable, unlike a response.
    private static func answer(_ stub: any Stub, _ request: StubRequest) -> String {
        guard case .response(let response) = stub.resolve(for: request) else { return "deferred" }
        // A stub file has each header name once, so fields of different names may come back in another order;
        // which registration answered is the registry's to say, not the stub's.
        let fields = response.headerFields.filter { $0.name != .matchedStubID }.enumerated().sorted {
            ($0.element.name.canonicalName, $0.offset) < ($1.element.name.canonicalName, $1.offset)
        }
        return
            """
            \(response.status.code) \(fields.map { "\($0.element)" }) \(response.body.base64EncodedString()) \
            \(response.delay) \(response.throttle) \(String(describing: response.fault))
            """
    }

    struct Custom: Stub {
        func resolve(for request: StubRequest) -> StubResolution { .response(StubResponse()) }
    }

    static let refused: [(stub: any Stub, route: Route, named: String)] = [
        (ClosureStub { _ in StubResponse() }, .get("/"), "ClosureStub"),
        (
            ConditionalStub(when: { _ in true }, then: StubResponse(), else: StubResponse()), .get("/"),
            "ConditionalStub"
        ),
        (Custom(), .get("/"), "Custom"),
        (
            AlternatingStub([StubResponse(), SequenceStub(first: [], then: StubResponse())]), .get("/"),
            "AlternatingStub › responses[1] › SequenceStub"
        ),
        (
            FailingStub(failing: 0.1, with: StubResponse(), otherwise: ClosureStub { _ in StubResponse() }), .get("/"),
            "FailingStub › otherwise › ClosureStub"
        ),
        (
            FailingStub(
                failing: 0.1, with: StubResponse(),
                otherwise: FailingStub(failing: 0.1, with: StubResponse(), otherwise: StubResponse())), .get("/"),
            "FailingStub › otherwise › FailingStub"
        ),
        (
            FailingStub(failing: 0.1, with: StubResponse(), otherwise: RandomStub([StubResponse()], seed: 1), seed: 1),
            .get("/"), "FailingStub"
        ),
        (StubResponse.fault(.transportError(.notConnectedToInternet)), .get("/"), "StubResponse › its fault"),
        (StubResponse(delay: .fixed(.microseconds(1500))), .get("/"), "StubResponse › its delay"),
        (RandomStub([StubResponse()], seed: UInt64.max), .get("/"), "RandomStub"),
        (
            StubResponse(), Route.get("/users/{id}").target(.equalTo("/users/1")),
            "the route GET /users/{id} where target equal to \"/users/1\""
        ),
        (
            StubResponse(), Route.get("/").query("a", .present).query("a", .absent),
            "the route GET / where query \"a\" present, query \"a\" absent"
        ),
        (StubResponse(), Route.get("/").body(.or([])), "the matcher or"),
    ]

    @Test("what cannot cross a process is refused, naming the stub", arguments: refused.indices)
    func refusals(_ index: Int) {
        let (stub, route, named) = Self.refused[index]
        #expect {
            _ = try StubEncoder.mapping(stub, for: route)
        } throws: { error in
            (error as? DecoyError)?.description.hasPrefix("\(named) cannot be sent to a server:") == true
        }
    }

    @Test("a closure's refusal says why and what to do instead")
    func closureMessage() {
        let error = #expect(throws: DecoyError.self) {
            try StubEncoder.mapping(ClosureStub { _ in StubResponse() }, for: .get("/"))
        }
        #expect(
            error?.description
                == """
                ClosureStub cannot be sent to a server: its closure runs only in the process that made it; \
                register it in-process, or write its answers as StubResponse values
                """
        )
    }

    @Test("a stub registered in code lists its response when a stub file can hold it")
    func codeMappings() throws {
        let registry = StubRegistry()
        let data = try registry.register(
            StubResponse(status: .accepted, text: "queued"), for: .post("/jobs").query("now", .equalTo("1")))
        let closure = try registry.register(ClosureStub { _ in StubResponse() }, for: .get("/live"))
        let listed = try #require(registry.mappings.first { $0 == data }?.document)
        guard case .object(let members) = listed else { Issue.record("not an object"); return }
        #expect(
            members["response"]
                == .object([
                    "status": .number(202), "statusMessage": .string("Accepted"),
                    "headers": .object(["Content-Type": .string("text/plain; charset=utf-8")]),
                    "body": .string("queued"),
                ]))
        #expect(
            members["request"]
                == .object([
                    "method": .string("POST"), "urlPathTemplate": .string("/jobs"),
                    "queryParameters": .object(["now": .object(["equalTo": .string("1")])]),
                ]))
        let closureListed = try #require(registry.mappings.first { $0 == closure }?.document)
        guard case .object(let closureMembers) = closureListed else { Issue.record("not an object"); return }
        #expect(closureMembers["response"] == nil)
        #expect(closureMembers["request"] == .object(["method": .string("GET"), "urlPathTemplate": .string("/live")]))
        // The listed mapping of a code stub is a stub file: sent back, it registers.
        let readded = try registry.addMapping(JSONEncoder().encode(listed))
        #expect(readded.route == Route.post("/jobs").query("now", .equalTo("1")))
    }

    @Test("a mapping's route reads back from its JSON")
    func routeFromMapping() throws {
        let route = Route.post("/orders").header(.contentType, .contains("json")).priority(3).scenario(
            "s", newState: "done")
        let mapping = JSONValue.object(try StubEncoder.mapping(StubResponse(), for: route))
        #expect(Route(mapping: mapping) == route)
        #expect(Route(mapping: .string("no")) == nil)
    }

    @Test("a route made from a path template keeps its name through the admin API's mapping")
    func templateFromMapping() throws {
        let route = Route(
            method: .get, path: #"/Accounts/([^/]*)\.json"#, pathSyntax: .regularExpression,
            pathTemplate: "/Accounts/{Sid}.json")
        #expect(route.description == "GET /Accounts/{Sid}.json")
        let registry = StubRegistry()
        let mapping = try registry.register(ClosureStub { _ in StubResponse() }, for: route)
        let read = try #require(Route(mapping: mapping.document))
        #expect(read == route)
        #expect(read.description == "GET /Accounts/{Sid}.json")
    }
}
