import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@testable import Decoy
@testable import DecoyStubFiles

/// Template stubs, from code and from stub files, give the same answers in every serving.
@Suite("Response templates: stubs")
struct TemplateStubTests {
    static let instant = Date(timeIntervalSince1970: 1_795_570_994)

    @Test(arguments: ServingMode.allCases)
    func aTemplateStubRendersBodyAndHeadersPerRequest(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        let response = StubResponse(
            status: .created, headerFields: [HTTPField.Name("X-Echo")!: "{{request.headers.X-Id}}"],
            json:
                #"""
                {"id": "{{request.pathSegments.[1]}}", "page": {{request.query.page}}, "name": "{{jsonPath \#
                request.body '$.name'}}", "at": "{{now}}"}
                """#
        )
        try registry.register(try TemplateStub(response, seed: 1, now: { Self.instant }), for: .post("/users/{id}"))
        let exchange = try await serving.exchange(
            registry, .post, "/users/42?page=3", headerFields: [HTTPField.Name("X-Id")!: "abc"],
            body: Data(#"{"name": "Ada"}"#.utf8))
        #expect(exchange.status == 201)
        #expect(exchange.text == #"{"id": "42", "page": 3, "name": "Ada", "at": "2026-11-25T01:43:14Z"}"#)
        #expect(exchange.headerFields[HTTPField.Name("X-Echo")!] == "abc")
        #expect(exchange.headerFields[.contentType] == "application/json")
    }

    @Test(arguments: ServingMode.allCases)
    func aSeededTemplateRepeatsItsRandomValues(_ serving: ServingMode) async throws {
        func run() async throws -> [String] {
            let registry = StubRegistry()
            try registry.register(
                try StubResponse(text: "{{uuid}} {{randomValue length=6}}").templated(seed: 9), for: .get("/id"))
            var answers: [String] = []
            for _ in 0..<2 { answers.append(try await serving.exchange(registry, .get, "/id").text) }
            return answers
        }
        let first = try await run()
        #expect(first[0] != first[1])
        #expect(try await run() == first)
    }

    /// A template of text alone answers every request with one response, so a server keeps its
    /// encoding, and any other template a response for one request, of which it keeps none. Text
    /// that reads as a tag only once parsed (`\\{{`) is still written as text, and a shorter
    /// `Content-Length` still cuts the body.
    @Test(arguments: ServingMode.allCases)
    func aTemplateOfTextAloneIsRenderedOnce(_ serving: ServingMode) async throws {
        let response = StubResponse(
            headerFields: [HTTPField.Name("X-Kind")!: "plain", .contentLength: "12"], text: #"plain \{{text}} and more"#
        )
        let stub = try TemplateStub(response)
        func cache(of stub: TemplateStub) -> ServingCache? {
            guard case .response(let response) = stub.resolve(for: StubRequest(method: .get, target: "/plain")) else {
                return nil
            }
            return response.cache
        }
        let first = try #require(cache(of: stub))
        #expect(first === cache(of: stub))
        let timed = try TemplateStub(StubResponse(text: "{{now}}"))
        // Rendered per request, for that request alone: a server keeps no encoding of it.
        #expect(cache(of: timed) == nil)

        let registry = StubRegistry()
        try registry.register(stub, for: .get("/plain"))
        let exchange = try await serving.exchange(registry, .get, "/plain")
        #expect(exchange.text == "plain {{text")
        #expect(exchange.headerFields[HTTPField.Name("X-Kind")!] == "plain")
    }

    @Test func aMalformedTemplateFailsWhenTheStubIsMade() {
        let error = #expect(throws: DecoyError.self) {
            try TemplateStub(StubResponse(text: "{{#each request.query.ids}}"))
        }
        guard case .invalidTemplate(_, _, let helper, _)? = error else {
            Issue.record("not a template's error: \(String(describing: error))")
            return
        }
        #expect(helper == "each")
        let header = #expect(throws: DecoyError.self) {
            try TemplateStub(StubResponse(headerFields: [HTTPField.Name("X-A")!: "{{shout}}"]))
        }
        #expect(
            header?.description
                == #"""
                line 1, column 3: in header X-A: no helper or value is called "shout"; helpers: jsonPath, xPath, \#
                now, date, parseDate, randomValue, uuid, pickRandom, math, range, assign, parseJson, upper, \#
                lower, capitalize, capitalizeFirst, trim, size, defaultIfEmpty, join, replace, substring, \#
                abbreviate, urlEncode, base64, contains, matches, regexExtract, eq, neq, gt, gte, lt, lte, and, \#
                or, not, if, unless, each, with; values start at request or a variable set before
                """#
        )
    }

    static let folder: [String: String] = [
        "mappings/echo.json": #"""
        {
          "request": { "method": "POST", "urlPathPattern": "/things/.*" },
          "response": {
            "status": 200,
            "headers": { "X-Path": "{{request.path.[1]}}" },
            "jsonBody": { "thing": "{{request.path.[1]}}", "name": "{{jsonPath request.body '$.name'}}" },
            "transformers": ["response-template"]
          }
        }
        """#,
        "mappings/plain.json": #"{ "request": { "urlPath": "/plain" }, "response": { "body": "{{request.path}}" } }"#,
        "mappings/file.json":
            #"""
        { "request": { "urlPath": "/file" }, "response": { "bodyFileName": "hello.txt", "transformers": \#
        ["response-template"] } }
        """#,
        "mappings/named.json":
            #"""
        { "request": { "urlPathPattern": "/named/.*" }, "response": { "bodyFileName": \#
        "{{request.pathSegments.[1]}}.json", "transformers": ["response-template"] } }
        """#,
        "mappings/by-query.json":
            #"""
        { "request": { "urlPath": "/by-query" }, "response": { "bodyFileName": "{{request.query.f}}", \#
        "transformers": ["response-template"] } }
        """#,
        "__files/hello.txt": "Hello {{request.query.name}}!",
        "__files/abc.json": #"{"name": "{{request.path.[1]}}"}"#,
    ]

    @Test(arguments: ServingMode.allCases)
    func stubFilesTemplateWhereTheResponseNamesTheTransformer(_ serving: ServingMode) async throws {
        let scratch = try ScratchFolder(Self.folder)
        let registry = StubRegistry()
        try registry.load(folder: scratch.url)
        let echo = try await serving.exchange(registry, .post, "/things/a%26b", body: Data(#"{"name": "Ada"}"#.utf8))
        #expect(echo.text == #"{"thing":"a&amp;b","name":"Ada"}"#)
        #expect(echo.headerFields[HTTPField.Name("X-Path")!] == "a&amp;b")
        #expect(try await serving.exchange(registry, .get, "/plain").text == "{{request.path}}")
        #expect(try await serving.exchange(registry, .get, "/file?name=Ada").text == "Hello Ada!")
        let named = try await serving.exchange(registry, .get, "/named/abc")
        #expect(named.text == #"{"name": "abc"}"#)
        // As WireMock: no Content-Type the stub does not set.
        #expect(named.headerFields[.contentType] == nil)
        let outside = try await serving.exchange(registry, .get, "/by-query?f=../../etc/passwd")
        #expect(outside.status == 500)
        #expect(
            outside.text
                == #"""
                Decoy could not render this stub's template: "../../etc/passwd" resolves outside the stubs \#
                folder; a body file must be inside it
                """#
        )
        #expect(
            try await serving.exchange(registry, .get, "/named/nope").text
                == #"""
                Decoy could not render this stub's template: no file "nope.json" in __files/ or next to the stub \#
                file
                """#
        )
    }

    @Test func aStubFilesSeedRepeatsItsTemplatesRandomValues() async throws {
        let files = [
            "seeded.yaml": """
            request: { urlPath: /id }
            response: { body: "{{uuid}} {{randomValue length=4}}", transformers: [response-template] }
            seed: 3
            """
        ]
        func answers() async throws -> [String] {
            let scratch = try ScratchFolder(files)
            let registry = StubRegistry()
            try registry.load(folder: scratch.url)
            var texts: [String] = []
            for _ in 0..<2 { texts.append(try await ServingMode.inProcess.exchange(registry, .get, "/id").text) }
            return texts
        }
        let first = try await answers()
        #expect(first[0] != first[1])
        #expect(try await answers() == first)
        let bad = try ScratchFolder([
            "bad.yaml":
                """
            request: { urlPath: /id }\nresponse: { body: \"{{uuid}}\", transformers: [response-template] \
            }\nseed: soon\n
            """
        ])
        #expect(
            StubFolder(url: bad.url).check().errors.map(\.description) == [
                #"bad.yaml:3:7: seed: expected a whole number, found "soon""#
            ])
    }

    @Test func globalTemplatingTemplatesEveryResponse() async throws {
        let scratch = try ScratchFolder(Self.folder)
        let registry = StubRegistry()
        registry.templatesEveryResponse = true
        try registry.load(folder: scratch.url)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/plain").text == "/plain")
        #expect(StubFolder(url: scratch.url, templatesEveryResponse: true).check().isValid)
    }

    @Test func malformedTemplatesInStubFilesFailTheCheckWithFilePlaceAndHelper() throws {
        let scratch = try ScratchFolder([
            "bad.yaml": """
            - request: { urlPath: /a }
              response:
                body: "ok {{#if request.query.a}} never closed"
                transformers: [response-template]
            - request: { urlPath: /b }
              response:
                headers: { X-A: "{{shout request.path}}" }
                transformers: [response-template]
            - request: { urlPath: /c }
              response: { body: x, transformers: [gzip] }
            """
        ])
        let report = StubFolder(url: scratch.url).check()
        #expect(
            report.errors.map(\.description) == [
                #"""
                bad.yaml:3:11: [0].response.body: malformed template at line 1, column 7: {{#if}} is never \#
                closed with {{/if}} (helper if)
                """#,
                #"""
                bad.yaml:7:14: [1].response.headers: malformed template at line 1, column 3: in header X-A: no \#
                helper or value is called "shout"; helpers: jsonPath, xPath, now, date, parseDate, randomValue, \#
                uuid, pickRandom, math, range, assign, parseJson, upper, lower, capitalize, capitalizeFirst, \#
                trim, size, defaultIfEmpty, join, replace, substring, abbreviate, urlEncode, base64, contains, \#
                matches, regexExtract, eq, neq, gt, gte, lt, lte, and, or, not, if, unless, each, with; values \#
                start at request or a variable set before (helper shout)
                """#,
            ])
        // A transformer Decoy does not have is served without, as WireMock serves one not installed.
        #expect(
            report.warnings.map(\.description) == [
                #"""
                bad.yaml:10:39: [2].response.transformers[0]: transformer "gzip" is not in Decoy, which has \#
                response-template; served without it, as WireMock serves a stub whose transformer is not installed
                """#
            ])
    }

    /// A folder as real WireMock users write it, with WireMock 2.35.1's helpers and JSON path
    /// functions in matchers and templates; the answers are those of the 2.35.1 jar
    /// (`--local-response-templating`) on the same folder.
    @Test(arguments: ServingMode.allCases)
    func aWireMockFolderWithItsHelpersServesAsWireMockDoes(_ serving: ServingMode) async throws {
        let scratch = try ScratchFolder([
            "mappings/orders.json": #"""
            {
              "request": { "method": "POST", "urlPath": "/orders", "bodyPatterns": [{ "matchesJsonPath": \#
            "$[?(@.items.length() > 1)]" }] },
              "response": {
                "status": 201,
                "jsonBody": {
                  "count": "{{jsonPath request.body '$.items.length()'}}",
                  "total": "{{math (jsonPath request.body '$..price.sum()') '*' 2}}",
                  "max": "{{jsonPath request.body '$..price.max()'}}",
                  "due": "{{date (parseDate (jsonPath request.body '$.placed')) offset='30 days' format='yyyy-MM-dd'}}",
                  "skus": "{{#each (jsonPath request.body '$.items') as |item|}}{{item.sku}}{{#unless \#
            @last}},{{/unless}}{{/each}}"
                },
                "transformers": ["response-template"]
              }
            }
            """#,
            "mappings/single.json": #"""
            {
              "request": { "method": "POST", "urlPath": "/orders", "bodyPatterns": [{ "matchesJsonPath": { \#
            "expression": "$.items.length()", "equalTo": "1" } }] },
              "response": { "status": 422, "body": "{{parseJson request.body 'order'}}one item: \#
            {{order.items.[0].sku}}", "transformers": ["response-template"] }
            }
            """#,
            "mappings/xml.json": #"""
            {
              "request": { "method": "POST", "urlPath": "/xml" },
              "response": { "body": "{{xPath request.body '/order/@id'}}: {{#each (range 1 3)}}{{this}}{{/each}} \#
            {{math 10 '/' 4}} {{#assign 'unit'}}kg{{/assign}}{{xPath request.body '/order/weight/text()'}} {{unit}}", \#
            "transformers": ["response-template"] }
            }
            """#,
        ])
        let registry = StubRegistry()
        try registry.load(folder: scratch.url)
        let two = try await serving.exchange(
            registry, .post, "/orders",
            body: Data(
                #"""
                {"items": [{"sku": "A-1", "price": 3}, {"sku": "B-2", "price": 1.5}], "placed": \#
                "2021-06-14T10:11:12Z"}
                """#
                .utf8))
        #expect(two.status == 201)
        #expect(two.text == #"{"count":"2","total":"9.0","max":"3.0","due":"2021-07-14","skus":"A-1,B-2"}"#)
        let one = try await serving.exchange(
            registry, .post, "/orders", body: Data(#"{"items": [{"sku": "A-1", "price": 3}]}"#.utf8))
        #expect(one.status == 422 && one.text == "one item: A-1")
        let xml = try await serving.exchange(
            registry, .post, "/xml", body: Data(#"<order id="7"><weight>2.5</weight></order>"#.utf8))
        #expect(xml.text == "7: 123 3 2.5 kg")
    }
}

/// Template stubs written as stub-file JSON, for a server in another process.
@Suite("Response templates: encoding")
struct TemplateEncodingTests {
    @Test func aTemplateIsWrittenWithItsTransformerAndReadBackAsOne() throws {
        let stub = try TemplateStub(
            StubResponse(headerFields: [HTTPField.Name("X-Id")!: "{{request.headers.X-Id}}"], text: "{{request.path}}"))
        let mapping = try StubEncoder.mapping(stub, for: .get("/t"))
        #expect(
            mapping["response"]?.json
                == #"""
                {"body":"{{request.path}}","headers":{"Content-Type":"text/plain; charset=utf-8",\#
                "X-Id":"{{request.headers.X-Id}}"},"status":200,"statusMessage":"OK",\#
                "transformers":["response-template"]}
                """#
        )
        let definition = try StubDocument.stub(
            try JSONEncoder().encode(JSONValue.object(mapping)), source: "test", folder: nil
        ).get()
        guard
            case .response(let response) = definition.stub.resolve(
                for: StubRequest(method: .get, target: "/t", headerFields: [HTTPField.Name("X-Id")!: "7"]))
        else {
            Issue.record("no response")
            return
        }
        #expect(String(decoding: response.body, as: UTF8.self) == "/t")
        #expect(response.headerFields[HTTPField.Name("X-Id")!] == "7")
        let listed = try StubEncoder.mapping(AlternatingStub([stub, StubResponse()]), for: .get("/t"))
        #expect(listed["responses"]?.json.contains("response-template") == true)
    }

    @Test func aSeededTemplateIsWrittenWithItsSeedAndRepeatsWhenReadBack() throws {
        let stub = try TemplateStub(StubResponse(text: "{{uuid}}"), seed: 5)
        let mapping = try StubEncoder.mapping(stub, for: .get("/"))
        #expect(mapping["seed"] == .number(5))
        let definition = try StubDocument.stub(
            try JSONEncoder().encode(JSONValue.object(mapping)), source: "test", folder: nil
        ).get()
        let request = StubRequest(method: .get, target: "/")
        for _ in 0..<3 {
            guard case .response(let sent) = stub.resolve(for: request),
                case .response(let read) = definition.stub.resolve(for: request)
            else {
                Issue.record("no response")
                return
            }
            #expect(sent.body == read.body)
        }
        let failing = FailingStub(
            failing: 0.5, with: StubResponse(status: .internalServerError),
            otherwise: try TemplateStub(StubResponse(text: "{{uuid}}"), seed: 5), seed: 5)
        #expect(try StubEncoder.mapping(failing, for: .get("/"))["seed"] == .number(5))
    }

    @Test func whatAStubFileCannotSayIsRefused() throws {
        let listed = AlternatingStub([try TemplateStub(StubResponse(text: "{{uuid}}"), seed: 1)])
        let seeded = #expect(throws: DecoyError.self) { try StubEncoder.mapping(listed, for: .get("/")) }
        #expect(
            seeded?.description.hasPrefix("AlternatingStub › responses[0] › TemplateStub › its seed cannot") == true)
        let twoSeeds = FailingStub(
            failing: 0.5, with: StubResponse(), otherwise: try TemplateStub(StubResponse(text: "{{uuid}}"), seed: 5),
            seed: 6)
        #expect(throws: DecoyError.self) { try StubEncoder.mapping(twoSeeds, for: .get("/")) }
        let clocked = #expect(throws: DecoyError.self) {
            try StubEncoder.mapping(try TemplateStub(StubResponse(text: "{{now}}"), now: { Date() }), for: .get("/"))
        }
        #expect(clocked?.description.hasPrefix("TemplateStub › its clock cannot") == true)
    }
}
