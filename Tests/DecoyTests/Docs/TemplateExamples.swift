// swift-format-ignore-file
// The examples of docs/templates.md, verbatim; DocumentationSyncTests keeps the Swift ones so,
// and the stub-file examples are loaded from the page itself.
import Decoy
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Response templates, as documented")
struct TemplateExamples {
    let fixedDate = Date(timeIntervalSince1970: 1_795_570_994)

    /// The JSON blocks of the page, in order.
    static func jsonExamples() throws -> [String] {
        let text = try String(contentsOf: DocumentationSyncTests.root.appending(path: "docs/templates.md"), encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func stubFileExamplesAnswerAsThePageSays() async throws {
        let examples = try Self.jsonExamples()
        #expect(examples.count == 2)
        let folder = try ScratchFolder([
            "mappings/users.json": examples[0], "mappings/products.json": examples[1],
            "__files/products/lamp.json": #"{"name": "lamp", "asked": "{{request.method}}"}"#,
        ])
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        for serving in ServingMode.allCases {
            let user = try await serving.exchange(registry, .post, "/users/42", headerFields: [HTTPField.Name("X-Request-Id")!: "r-1"], body: Data(#"{"name": "Ada"}"#.utf8))
            #expect(user.status == 201)
            #expect(user.text == #"{"id":"42","name":"Ada"}"#)
            #expect(user.headerFields[HTTPField.Name("X-Request-Id")!] == "r-1")
            #expect(try await serving.exchange(registry, .get, "/products/lamp").text == #"{"name": "lamp", "asked": "GET"}"#)
            #expect(try await serving.exchange(registry, .get, "/products/desk").status == 500)
        }
    }

    @Test func aMalformedTemplateFailsTheCheck() throws {
        let folder = try ScratchFolder(["users.json": """
            {
              "request": { "urlPath": "/users" },
              "response": {
                "transformers": ["response-template"],
                "status": 200,
                "jsonBody": { "name": "{{shout request.body}}" }
              }
            }
            """])
        let report = StubFolder(url: folder.url).check()
        #expect(report.errors.map(\.description).first?.hasPrefix(#"users.json:6:17: response.jsonBody: malformed template at line 1, column 12 of its JSON text: no helper or value is called "shout"; "#) == true)
        #expect(report.errors.map(\.description).first?.hasSuffix("(helper shout)") == true)
    }

    @Test func globalTemplating() async throws {
        let folder = try ScratchFolder(["plain.json": #"{ "request": { "urlPath": "/echo" }, "response": { "body": "{{request.query.q}}" } }"#])
        let registry = StubRegistry()
        registry.templatesEveryResponse = true
        try registry.load(folder: folder.url)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/echo?q=hi").text == "hi")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/echo?q=%3Cb%3E").text == "&lt;b&gt;")
    }

    @Test func templateStubInCode() async throws {
        let registry = StubRegistry()
        let user = StubResponse(status: .created, json: #"{"id": "{{request.path.[1]}}", "name": "{{jsonPath request.body '$.name'}}"}"#)
        try registry.register(try TemplateStub(user, seed: 7), for: .post("/users/{id}"))
        for serving in ServingMode.allCases {
            let answer = try await serving.exchange(registry, .post, "/users/42", body: Data(#"{"name": "Ada"}"#.utf8))
            #expect(answer.status == 201 && answer.text == #"{"id": "42", "name": "Ada"}"#)
        }
    }

    @Test func seededAndClocked() async throws {
        let registry = StubRegistry()
        let stamped = try StubResponse(text: "{{uuid}} at {{now format='yyyy-MM-dd'}}").templated(seed: 7, now: { fixedDate })
        try registry.register(stamped, for: .get("/stamp"))
        let first = try await ServingMode.inProcess.exchange(registry, .get, "/stamp").text
        #expect(first.hasSuffix(" at 2026-11-25"))
        let again = StubRegistry()
        try again.register(try StubResponse(text: "{{uuid}} at {{now format='yyyy-MM-dd'}}").templated(seed: 7, now: { fixedDate }), for: .get("/stamp"))
        #expect(try await ServingMode.server.exchange(again, .get, "/stamp").text == first)
    }

    @Test func tableRows() throws {
        let request = "/users/42?page=2&id=a&id=b"
        let stub = try TemplateStub(StubResponse(text: "{{request.url}}|{{request.path}}|{{request.path.[1]}}|{{request.pathSegments.[1]}}|{{request.method}}|{{request.query.page}}|{{request.query.id.[1]}}|{{now}}|{{size request.query.id}}"), now: { fixedDate })
        guard case .response(let response) = stub.resolve(for: StubRequest(method: .post, target: request)) else { Issue.record("no response"); return }
        #expect(String(decoding: response.body, as: UTF8.self) == "/users/42?page&#x3D;2&amp;id&#x3D;a&amp;id&#x3D;b|/users/42|42|42|POST|2|b|2026-11-25T01:43:14Z|2")
    }

    /// The rows of "Helpers from WireMock", each rendered for the request the page names, with the
    /// body of the text block above its table.
    static func helperRows() throws -> [(template: String, gives: String, body: String)] {
        let text = try String(contentsOf: DocumentationSyncTests.root.appending(path: "docs/templates.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## Helpers from WireMock\n")[1].components(separatedBy: "\n## ")[0]
        var rows: [(String, String, String)] = []
        var body = ""
        for block in section.components(separatedBy: "```text\n").dropFirst() {
            body = block.components(separatedBy: "\n```")[0]
            for line in block.split(separator: "\n") where line.hasPrefix("| `") {
                let cells = line.dropFirst(3).dropLast(3).components(separatedBy: "` | `")
                rows.append((cells[0], cells[1], body))
            }
        }
        return rows
    }

    @Test func helperRowsGiveWhatThePageSays() throws {
        let rows = try Self.helperRows()
        #expect(rows.count == 20)
        for row in rows {
            let stub = try TemplateStub(StubResponse(text: row.template), now: { fixedDate })
            guard case .response(let response) = stub.resolve(for: StubRequest(method: .post, target: "/orders?n=7", body: Data(row.body.utf8))) else { Issue.record("no response for \(row.template)"); continue }
            #expect(String(decoding: response.body, as: UTF8.self) == row.gives, "\(row.template)")
        }
    }
}
