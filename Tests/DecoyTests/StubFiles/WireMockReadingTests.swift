import Decoy
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Real WireMock folders as WireMock 2.35.1 reads and answers them: JSON it reads leniently, each
/// leniency said once; only `mappings/` under a WireMock root; header values, `Content-Length`
/// and `Matched-Stub-*` as WireMock sends them, in every serving.
@Suite("Stub files: as WireMock reads them")
struct WireMockReadingTests {
    static let lenient = """
        // Orders, for the checkout tests
        {
          "id": "00000000-0000-0000-0000-00000000000a", /* the old id */
          "uuid": "00000000-0000-0000-0000-00000000000b",
          "request": { "method": "GET", "urlPath": "/orders" },
          "response": { "status": "201", "body": "first", "body": "second", "fixedDelayMilliseconds": "0" }
        }
        }
        """

    @Test func jsonAsWireMockReadsIt() async throws {
        let folder = try ScratchFolder(["mappings/orders.json": Self.lenient])
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(report.stubs.map(\.id) == ["00000000-0000-0000-0000-00000000000b"])
        #expect(
            report.warnings.map(\.description) == [
                "mappings/orders.json:1:1: comments are not JSON; read past, as WireMock reads them",
                #"""
                mappings/orders.json:4:11: uuid: id and uuid differ; the stub's id is its uuid, \#
                "00000000-0000-0000-0000-00000000000b", written last, as in WireMock
                """#,
                """
                mappings/orders.json:6:27: response.status: a number or true/false written as a string; read as \
                its value, as WireMock reads it
                """,
                #"""
                mappings/orders.json:6:51: "body" is given more than once in an object; the last one counts, as \#
                in WireMock
                """#,
                "mappings/orders.json:8:1: text after the file's JSON value is ignored, as WireMock ignores it",
            ])
        for serving in ServingMode.allCases {
            let exchange = try await serving.exchange(registry, .get, "/orders")
            #expect(exchange.status == 201, "\(serving)")
            #expect(exchange.text == "second", "\(serving)")
        }
    }

    @Test func aFileThatStartsWithAByteOrderMarkIsRead() async throws {
        let folder = try ScratchFolder([
            "mappings/bom.json": "\u{FEFF}" + #"{ "request": { "urlPath": "/bom" }, "response": { "body": "read" } }"#,
            "mappings/bom.yaml": "\u{FEFF}request: { urlPath: /bom-yaml }\nresponse: { body: read too }\n",
        ])
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(report.stubs.count == 2)
        #expect(
            report.warnings.map(\.description) == [
                "mappings/bom.json:1:1: the file starts with a byte-order mark, read past; WireMock 2.35.1 refuses "
                    + "such a file"
            ])
        for serving in ServingMode.allCases {
            #expect(try await serving.exchange(registry, .get, "/bom").text == "read", "\(serving)")
            #expect(try await serving.exchange(registry, .get, "/bom-yaml").text == "read too", "\(serving)")
        }
    }

    /// mitmproxy's HAR export, and Jackson's writers, escape every character past U+FFFF as a
    /// UTF-16 surrogate pair, which RFC 8259 allows and WireMock 2.35.1 reads.
    @Test func surrogatePairEscapesAreRead() async throws {
        let folder = try ScratchFolder([
            "mappings/emoji.json": #"""
            { "request": { "urlPath": "/pictures", "queryParameters": { "tag": { "equalTo": "\ud83d\uddbc" } } },
              "response": { "body": "pic \ud83d\uddbc \uD83D\uDE00 end", "status": "x" } }
            """#,
            "mappings/lone.json": #"{ "request": { "urlPath": "/lone" }, "response": { "body": "[\ud83d]" } }"#,
        ])
        // An error after the escapes on their line is still placed where it is in the file.
        #expect(
            StubFolder(url: folder.url).check().errors.map(\.description) == [
                #"mappings/emoji.json:2:72: response.status: expected an integer 100…599, found "x""#
            ])
        try folder.write(
            "mappings/emoji.json",
            #"""
            { "request": { "urlPath": "/pictures", "queryParameters": { "tag": { "equalTo": "\ud83d\uddbc" } } },
              "response": { "body": "pic \ud83d\uddbc \uD83D\uDE00 end" } }
            """#)
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(
            report.warnings.map(\.description) == [
                "mappings/lone.json:1:62: a \\u escape of half a UTF-16 surrogate pair is read as \"?\", as "
                    + "WireMock sends it in a body"
            ])
        for serving in ServingMode.allCases {
            let exchange = try await serving.exchange(registry, .get, "/pictures?tag=%F0%9F%96%BC")
            #expect(exchange.text == "pic \u{1F5BC} \u{1F600} end", "\(serving)")
            #expect(try await serving.exchange(registry, .get, "/lone").text == "[?]", "\(serving)")
        }
    }

    @Test func anErrorAfterBlankedTextIsReportedWhereItIsInTheFile() throws {
        let folder = try ScratchFolder([
            "a.json": """
            /* a comment
               over lines */ { "request": { "urlPath": "/a" }, // and one more
              "response": { "status": "ok" } }
            """
        ])
        #expect(
            StubFolder(url: folder.url).check().errors.map(\.description) == [
                #"a.json:3:27: response.status: expected an integer 100…599, found "ok""#
            ])
    }

    @Test func aKeyBesideAMatcherIsAWarningAndTheMatcherHolds() async throws {
        let folder = try ScratchFolder([
            "a.json": #"""
            { "request": { "method": "POST", "urlPath": "/a",
                           "bodyPatterns": [{ "matchesJsonPath": "$.id", "note": "ids only" }] },
              "response": { "body": "matched" } }
            """#
        ])
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(
            report.warnings.map(\.description) == [
                "a.json:2:70: request.bodyPatterns[0].note: note is not a matcher; ignored, as WireMock ignores it"
            ])
        #expect(
            try await ServingMode.inProcess.exchange(registry, .post, "/a", body: Data(#"{"id": 1}"#.utf8)).text
                == "matched")
        #expect(try await ServingMode.inProcess.exchange(registry, .post, "/a", body: Data("{}".utf8)).status == 404)
    }

    /// WireMock takes a JSON or XML matcher before any other, then the first written.
    @Test func ofTwoMatchersInOneObjectTheOneWireMockReadsHolds() async throws {
        let folder = try ScratchFolder([
            "a.json": #"""
            { "request": { "method": "POST", "urlPath": "/a",
                           "bodyPatterns": [{ "contains": "nowhere", "matchesJsonPath": "$.id" }],
                           "headers": { "X-Mode": { "equalTo": "fast", "contains": "slow" } } },
              "response": { "body": "matched" } }
            """#
        ])
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(
            report.warnings.map(\.description) == [
                """
                a.json:2:47: request.bodyPatterns[0].contains: contains beside matchesJsonPath is ignored, as \
                WireMock ignores it
                """,
                """
                a.json:3:72: request.headers.X-Mode.contains: contains beside equalTo is ignored, as WireMock \
                ignores it
                """,
            ])
        let exchange = try await ServingMode.inProcess.exchange(
            registry, .post, "/a", headerFields: [HTTPField.Name("X-Mode")!: "fast"], body: Data(#"{"id": 1}"#.utf8))
        #expect(exchange.text == "matched")
    }

    @Test func aWireMockRootHasItsStubsInMappingsOnly() throws {
        let folder = try ScratchFolder([
            "mappings/cart.json": #"{ "request": { "urlPath": "/cart" }, "response": { "status": 200 } }"#,
            "response/cart_response.json": #"{ "items": [] }"#,
            "notes.yaml": "not: a stub",
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(report.isValid)
        #expect(report.stubs.map(\.file) == ["mappings/cart.json"])
    }

    @Test func answersCarryWhatWireMockSends() async throws {
        let folder = try ScratchFolder([
            "mappings/a.json": #"""
            { "id": "6f1c4a9e-0000-4000-8000-000000000001", "name": "Trimmed nothing",
              "request": { "urlPath": "/a" },
              "response": { "body": "hello world", "headers": { "X-Trail": "value ", "Content-Length": "5" } } }
            """#
        ])
        let registry = StubRegistry()
        try registry.load(folder: folder.url, strict: true)
        for serving in ServingMode.allCases {
            let exchange = try await serving.exchange(registry, .get, "/a")
            #expect(exchange.text == "hello", "\(serving)")
            #expect(exchange.headerFields[.matchedStubID] == "6f1c4a9e-0000-4000-8000-000000000001", "\(serving)")
            #expect(exchange.headerFields[.matchedStubName] == "Trimmed nothing", "\(serving)")
            #expect(exchange.headerFields[.contentType] == nil, "\(serving)")
            // URLSession trims a value's edges as it reads the head; the server sends them (the WireMock
            // parity check reads the bytes).
            if serving == .inProcess {
                #expect(exchange.headerFields[HTTPField.Name("X-Trail")!] == "value ")
            }
            let unmatched = try await serving.exchange(registry, .get, "/b")
            #expect(unmatched.headerFields[.matchedStubID] == nil, "\(serving)")
        }
    }

    /// WireMock 2.35.1 sends a stub's `Content-Length` with as many bytes of its body, `jsonBody`
    /// and rendered templates too (checked against it: `{}` with `Content-Length: 0` gets no body, `{"a":1}`
    /// with 3 gets `{"a`), in every serving.
    @Test func aContentLengthCutsEveryKindOfBodyAsWireMockDoes() async throws {
        let folder = try ScratchFolder([
            "mappings/cl.json": #"""
            [ { "request": { "urlPath": "/empty" },
                "response": { "headers": { "Content-Length": "0" }, "jsonBody": {} } },
              { "request": { "urlPath": "/three" },
                "response": { "headers": { "Content-Length": "3" }, "jsonBody": { "a": 1 } } },
              { "request": { "urlPath": "/path" },
                "response": { "headers": { "Content-Length": "3" }, "body": "{{request.path}}",
                              "transformers": ["response-template"] } },
              { "request": { "urlPath": "/short" },
                "response": { "headers": { "Content-Length": "20" }, "body": "{{request.path}}",
                              "transformers": ["response-template"] } } ]
            """#
        ])
        for templatesEveryResponse in [false, true] {
            let registry = StubRegistry()
            registry.templatesEveryResponse = templatesEveryResponse
            let report = try registry.load(folder: folder.url, strict: true)
            #expect(report.warnings.isEmpty, "\(report.warnings)")
            for serving in ServingMode.allCases {
                for (path, text) in [("/empty", ""), ("/three", #"{"a"#), ("/path", "/pa"), ("/short", "/short")] {
                    let exchange = try await serving.exchange(registry, .get, path)
                    let context = "\(serving), \(path), every response a template: \(templatesEveryResponse)"
                    #expect(exchange.text == text, "\(context)")
                    #expect(exchange.headerFields[.contentLength] == "\(text.utf8.count)", "\(context)")
                }
            }
        }
    }

    @Test func aContentLengthPastTheBodyIsRefused() throws {
        let folder = try ScratchFolder([
            "a.json":
                #"""
            { "request": { "urlPath": "/a" }, "response": { "body": "hi", "headers": { "Content-Length": \#
            "10" } } }
            """#
        ])
        #expect(
            StubFolder(url: folder.url).check().errors.map(\.description) == [
                """
                a.json:1:74: response.headers: Content-Length 10 is more than the body's 2 bytes; a client would \
                wait for bytes that never come
                """
            ])
    }

    @Test func removalByRequestPatternRemovesTheStubsOfThatPattern() throws {
        let registry = StubRegistry()
        try registry.addMapping(Data(#"{"request": {"method": "GET", "url": "/x"}, "response": {"status": 200}}"#.utf8))
        try registry.addMapping(Data(#"{"request": {"method": "GET", "url": "/y"}, "response": {"status": 200}}"#.utf8))
        // WireMock's Java client sends a new id with the pattern it removes by.
        let removed = try registry.removeMappings(
            like: Data(
                #"""
                {"id": "11111111-2222-3333-4444-555555555555", "request": {"method": "GET", "url": "/x"}, \#
                "response": {"status": 200}}
                """#
                .utf8))
        #expect(removed.map(\.route.path) == ["/x"])
        #expect(registry.routes.map(\.path) == ["/y"])
    }
}
