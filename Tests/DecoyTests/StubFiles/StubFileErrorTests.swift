import Decoy
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Broken stub files: each problem is reported with the file, line, column, field and what
/// was expected, and every problem in the folder is reported at once.
@Suite("Stub files: errors")
struct StubFileErrorTests {
    /// A file with one problem, and the exact errors it gives.
    struct BadFile: Sendable, CustomTestStringConvertible {
        let name: String
        let path: String
        let text: String
        let errors: [String]
        var testDescription: String { name }
    }

    static let badFiles: [BadFile] = [
        BadFile(
            name: "malformed JSON", path: "broken.json",
            text: """
                {
                  "request": { "method": "GET" "urlPath": "/a" },
                  "response": { "status": 200 }
                }
                """,
            errors: [
                #"broken.json:2:32: not valid JSON: did not find expected ',' or '}' while parsing a flow mapping"#
            ]),
        BadFile(
            name: "a control character, said in Decoy's words and escaped", path: "nul.json",
            text: "{\n  \"request\": { \"urlPath\": \"/a\u{0}\u{1B}[2J\" },\n  \"response\": {}\n}",
            errors: [
                #"nul.json:2:30: not valid JSON: the character U+0000 is not allowed; inside a string, escape it as "#
                    + #"\u0000"#
            ]),
        BadFile(
            name: "nesting past the parser's depth", path: "deep.json",
            text: String(repeating: #"{"a":"#, count: 1_001) + "1" + String(repeating: "}", count: 1_001),
            errors: [
                "deep.json:1:4996: not valid JSON: nested more than 1000 levels deep; Decoy reads at most that many"
            ]),
        BadFile(
            name: "an escaped control character quoted back", path: "escaped.yaml",
            text: "request: { urlPath: /a }\nresponse: { status: \"\\x00\\x1b[2J\" }\n",
            errors: [
                #"escaped.yaml:2:21: response.status: expected an integer 100…599, found "\u0000\u001b[2J""#
            ]),
        BadFile(
            name: "malformed YAML", path: "broken.yaml",
            text: """
                request:
                  method: GET
                 urlPath: /a
                response:
                  status: 200
                """,
            errors: [
                #"""
                broken.yaml:3:2: not valid YAML: did not find expected key while parsing a block mapping that \#
                starts on line 1
                """#
            ]),
        BadFile(
            name: "wrong types", path: "users.yaml",
            text: """
                request:
                  method: [GET]
                  urlPath: [/a]
                priority: high
                response:
                  status: ok
                  headers: [X-A]
                  fixedDelayMilliseconds: -1
                """,
            errors: [
                #"users.yaml:2:11: request.method: expected a method such as "GET" or "ANY", found a list"#,
                #"users.yaml:3:12: request.urlPath: expected a path, found a list"#,
                #"users.yaml:4:11: priority: expected an integer, found "high""#,
                #"users.yaml:6:11: response.status: expected an integer 100…599, found "ok""#,
                #"users.yaml:7:12: response.headers: expected an object, found a list"#,
                #"users.yaml:8:27: response.fixedDelayMilliseconds: expected a whole number of milliseconds, found -1"#,
            ]),
        BadFile(
            name: "unknown matcher", path: "matchers.json",
            text: """
                {
                  "request": {
                    "urlPath": "/a",
                    "headers": { "Accept": { "equalToXml": "<a/>" } },
                    "bodyPatterns": [{ "equalsTo": "x" }, { "equalTo": "a", "contains": "b" }, {}]
                  },
                  "response": { "status": 200 }
                }
                """,
            errors: [
                #"""
                matchers.json:4:44: request.headers.Accept.equalToXml: unknown matcher "equalToXml"; did you \#
                mean "equalTo"?
                """#,
                #"""
                matchers.json:5:36: request.bodyPatterns[0].equalsTo: unknown matcher "equalsTo"; did you mean \#
                "equalTo"?
                """#,
                #"""
                matchers.json:5:80: request.bodyPatterns[2]: expected a matcher: one of equalTo, contains, \#
                doesNotContain, matches, doesNotMatch, absent, equalToJson, matchesJsonPath, matchesXPath, and, \#
                or, not
                """#,
            ]),
        BadFile(
            name: "invalid expressions", path: "expressions.yaml",
            text: """
                request:
                  urlPathPattern: /a(
                  queryParameters:
                    q: { matches: "[" }
                  bodyPatterns:
                    - matchesJsonPath: $.items.first()
                    - equalToJson: "{not json"
                response: { status: 200 }
                """,
            errors: [
                #"expressions.yaml:2:19: request.urlPathPattern: "/a(" is not a valid regular expression"#,
                #"expressions.yaml:4:8: request.queryParameters.q: "[" is not a valid regular expression"#,
                #"""
                expressions.yaml:6:7: request.bodyPatterns[0]: JSON path "$.items.first()": "first()" is not a \#
                function of WireMock's JSON paths (Jayway 2.7); they are length(), size(), min(), max(), avg(), \#
                sum(), stddev(), keys(), concat(), append()
                """#,
                #"expressions.yaml:7:7: request.bodyPatterns[1]: the expected document is not valid JSON"#,
            ]),
        BadFile(
            name: "body file climbing out with ../", path: "mappings/climb.json",
            text: """
                { "request": { "urlPath": "/a" }, "response": { "bodyFileName": "../../../../etc/passwd" } }
                """,
            errors: [
                #"""
                mappings/climb.json:1:65: response.bodyFileName: "../../../../etc/passwd" resolves outside the \#
                stubs folder; a body file must be inside it
                """#
            ]),
        BadFile(
            name: "body file with an absolute path", path: "absolute.yaml",
            text: """
                request: { urlPath: /a }
                response: { bodyFileName: /etc/passwd }
                """,
            errors: [
                #"""
                absolute.yaml:2:27: response.bodyFileName: "/etc/passwd" is an absolute path; name the file \#
                relative to __files/ or to the stub file
                """#
            ]),
        BadFile(
            name: "stub kinds used wrongly", path: "kinds.yaml",
            text: """
                - request: { urlPath: /a }
                - request: { urlPath: /b }
                  responses: [{ status: 200 }]
                - request: { urlPath: /c }
                  mode: random
                  seed: 1
                  response: { status: 200 }
                - request: { urlPath: /d }
                  when: { headers: { A: { absent: true } } }
                  response: { status: 200 }
                - request: { urlPath: /e }
                  newScenarioState: done
                  response: { status: 200 }
                """,
            errors: [
                #"kinds.yaml:1:3: [0]: a stub needs "response" or "responses""#,
                #"kinds.yaml:3:14: [1].responses: responses needs "mode": alternating, random, sequence"#,
                #"kinds.yaml:5:9: [2].mode: mode goes with "responses", not "response""#,
                #"kinds.yaml:6:9: [2].seed: seed goes with mode random, failureRate or a response template"#,
                #"kinds.yaml:9:9: [3].when: when needs "else", the response when the conditions do not hold"#,
                #"kinds.yaml:12:21: [4].newScenarioState: newScenarioState needs scenarioName"#,
            ]),
        BadFile(
            name: "failure rates used wrongly", path: "failing.yaml",
            text: """
                - request: { urlPath: /a }
                  failureRate: 1.5
                  failure: { status: 503 }
                  response: { status: 200 }
                - request: { urlPath: /b }
                  failureRate: 0.5
                  response: { status: 200 }
                - request: { urlPath: /c }
                  failure: { status: 503 }
                  response: { status: 200 }
                """,
            errors: [
                #"failing.yaml:2:16: [0].failureRate: expected a fraction from 0 to 1, found 1.5"#,
                #"failing.yaml:6:16: [1].failureRate: failureRate needs "failure", the response of a failing call"#,
                #"failing.yaml:9:12: [2].failure: failure needs "failureRate""#,
            ]),
        BadFile(
            name: "throttles", path: "throttle.yaml",
            text: """
                - request: { urlPath: /a }
                  response: { chunkedDribbleDelay: { numberOfChunks: 0, totalDuration: 100 } }
                - request: { urlPath: /b }
                  response: { chunkedDribbleDelay: { numberOfChunks: 2 } }
                - request: { urlPath: /c }
                  response: { chunkedDribbleDelay: { numberOfChunks: 2, totalDuration: 10 }, bytesPerSecond: 10 }
                """,
            errors: [
                #"""
                throttle.yaml:2:54: [0].response.chunkedDribbleDelay.numberOfChunks: expected a whole number \#
                above 0, found 0
                """#,
                #"""
                throttle.yaml:4:36: [1].response.chunkedDribbleDelay: chunkedDribbleDelay needs "numberOfChunks" \#
                and "totalDuration", in milliseconds
                """#,
                #"""
                throttle.yaml:6:94: [2].response.bytesPerSecond: give only one of chunkedDribbleDelay, \#
                bytesPerSecond; found chunkedDribbleDelay and bytesPerSecond
                """#,
            ]),
        BadFile(
            name: "response details", path: "response.yaml",
            text: """
                request: { urlPath: /a }
                response:
                  status: 700
                  body: text
                  jsonBody: {}
                  delayDistribution: { type: normal }
                  fault: STALL
                """,
            errors: [
                #"response.yaml:3:11: response.status: expected an integer 100…599, found 700"#,
                #"""
                response.yaml:5:13: response.jsonBody: give only one of body, jsonBody, base64Body, \#
                bodyFileName; found body and jsonBody
                """#,
                #"response.yaml:6:30: response.delayDistribution.type: expected uniform or lognormal, found "normal""#,
                #"""
                response.yaml:7:10: response.fault: expected one of CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, \#
                MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE, TIMEOUT, found "STALL"
                """#,
            ]),
    ]

    @Test(arguments: badFiles)
    func badFileIsReported(_ bad: BadFile) throws {
        let folder = try ScratchFolder([bad.path: bad.text])
        let report = StubFolder(url: folder.url).check()
        #expect(report.errors.map(\.description) == bad.errors)
        #expect(!report.isValid)
    }

    @Test func bodyFileBehindASymbolicLinkOutOfTheFolderIsRefused() throws {
        let outside = try ScratchFolder(["secret.txt": "not for stubs"])
        let folder = try ScratchFolder([
            "linked.yaml": """
            - request: { urlPath: /file }
              response: { bodyFileName: secret.txt }
            - request: { urlPath: /folder }
              response: { bodyFileName: elsewhere/secret.txt }
            """
        ])
        try folder.link("__files/secret.txt", to: outside.url.appending(path: "secret.txt").path)
        try folder.link("__files/elsewhere", to: outside.url.path)
        let report = StubFolder(url: folder.url).check()
        #expect(
            report.errors.map(\.description) == [
                #"""
                linked.yaml:2:29: [0].response.bodyFileName: "secret.txt" resolves outside the stubs folder; a \#
                body file must be inside it
                """#,
                #"""
                linked.yaml:4:29: [1].response.bodyFileName: "elsewhere/secret.txt" resolves outside the stubs \#
                folder; a body file must be inside it
                """#,
            ])
    }

    @Test func symbolicLinkThatStaysInsideIsFollowed() async throws {
        let folder = try ScratchFolder([
            "__files/real.txt": "inside",
            "stub.yaml": "{ request: { urlPath: /file }, response: { bodyFileName: alias.txt } }",
        ])
        try folder.link("__files/alias.txt", to: "real.txt")
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/file").text == "inside")
    }

    @Test func everyProblemInEveryFileIsReportedAtOnce() throws {
        let folder = try ScratchFolder([
            "a.json": #"{ "request": { "urlPath": "/a" }, "response": { "status": "ok" } }"#,
            "b/c.yaml": "request: { urlPath: /c }\nresponse: { status: 200, fault: NOPE }\n",
            "good.yaml": "request: { urlPath: /good }\nresponse: { status: 200 }\n",
        ])
        let error = #expect(throws: DecoyError.self) { try StubRegistry().load(folder: folder.url, strict: true) }
        #expect(
            error?.description == """
                The stubs folder has 2 errors:
                a.json:1:59: response.status: expected an integer 100…599, found "ok"
                b/c.yaml:2:33: response.fault: expected one of CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, \
                MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE, TIMEOUT, found "NOPE"
                """)
    }

    /// As WireMock, which reads body files per request and answers 500 for one it cannot read.
    @Test(arguments: [
        ("absent.json", #"no file "absent.json" in __files/ or next to the stub file"#),
        (
            "../outside.json",
            #""../outside.json" resolves outside __files/; WireMock reads no body file from outside __files/"#
        ),
        ("{{request.path}}.json", "is a template, but the response names no response-template transformer"),
    ])
    func aBodyFileThatCannotBeServedIsAWarningAndA500(_ name: String, _ reason: String) async throws {
        let folder = try ScratchFolder([
            "mappings/a.json": #"{ "request": { "urlPath": "/a" }, "response": { "bodyFileName": "\#(name)" } }"#,
            "outside.json": "{}",
        ])
        let registry = StubRegistry()
        let report = try registry.load(folder: folder.url)
        #expect(report.isValid)
        #expect(report.warnings.count == 1)
        #expect(
            report.warnings.first.map { $0.field == "response.bodyFileName" && $0.message.contains(reason) } == true)
        for serving in ServingMode.allCases {
            let exchange = try await serving.exchange(registry, .get, "/a")
            #expect(exchange.status == 500, "\(serving)")
            #expect(exchange.text.contains(reason), "\(serving)")
        }
    }

    @Test func unknownFieldsAreErrorsWithTheClosestName() throws {
        let folder = try ScratchFolder([
            "typos.yaml": """
            request:
              metod: GET
              urlPath: /a
              multipartPatterns: [{ bodyPatterns: [{ contains: b }] }]
            response:
              status: 200
              jsonbody: {}
            """
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(
            report.errors.map(\.description) == [
                #"typos.yaml:2:3: request.metod: unknown field; did you mean "method"?"#,
                #"typos.yaml:4:3: request.multipartPatterns: not supported by Decoy: match the body instead"#,
                #"typos.yaml:7:3: response.jsonbody: unknown field; did you mean "jsonBody"?"#,
            ])
    }

    @Test func aMissingFolderIsAnError() {
        let report = StubFolder(url: URL(filePath: "/nonexistent/stubs")).check()
        #expect(report.errors.map(\.description) == ["/nonexistent/stubs: no such folder"])
    }
}
