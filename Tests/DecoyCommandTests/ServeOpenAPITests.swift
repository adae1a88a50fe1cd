import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

@testable import DecoyCommand

/// What `decoy serve --openapi` registers, read through the engine the server serves.
@Suite("decoy serve --openapi")
struct ServeOpenAPITests {
    private static let spec = """
        openapi: 3.1.0
        info: {title: Pets, version: '1'}
        paths:
          /pets/{id}:
            get:
              operationId: getPet
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer, format: decimal}}
              responses:
                '200':
                  description: A pet.
                  content:
                    application/json:
                      example: {id: 1, name: Rex}
        """

    /// A stub file that proxies is checked as it serves: what it brings back from the real server
    /// is flagged where it breaks the document, and answered as it came.
    @Test func proxiedStubsAreCheckedAgainstTheDocument() async throws {
        let real = StubRegistry()
        try real.register(StubResponse(headerFields: [.contentType: "text/plain"], text: "Tom"), for: .get("/pets/3"))
        try await withMockServer(registry: real) { upstream in
            let folder = try CommandTests.Folder([
                "proxy.json": #"""
                {"request": {"method": "GET", "urlPath": "/pets/3"},
                 "response": {"proxyBaseUrl": "\#(upstream.baseURL)"}}
                """#,
                "pets.yaml": Self.spec,
            ])
            let registry = StubRegistry()
            _ = try ServeCommand.registerExamples(ofSpecAt: folder.url.appending(path: "pets.yaml").path, in: registry)
            try FileManager.default.removeItem(at: folder.url.appending(path: "pets.yaml"))
            try registry.load(folder: folder.url)
            let proxied = try await registry.engine.answer(StubRequest(method: .get, target: "/pets/3"))
            #expect(String(decoding: proxied.body, as: UTF8.self) == "Tom")
            #expect(proxied.drift.map(\.pointer) == ["/response/headers/Content-Type"])
            let example = try await registry.engine.answer(StubRequest(method: .get, target: "/pets/5"))
            #expect(example.drift.isEmpty)
        }
    }

    @Test func examplesAnswerWhatNoStubFileDoesAndBadRequestsGet400() async throws {
        let folder = try CommandTests.Folder([
            "rex.json":
                #"""
            {"request": {"method": "GET", "urlPath": "/pets/2"}, "response": {"status": 200, "body": "from \#
            the file"}}
            """#,
            "pets.yaml": Self.spec,
        ])
        let registry = StubRegistry()
        let lines = try ServeCommand.registerExamples(
            ofSpecAt: folder.url.appending(path: "pets.yaml").path, in: registry)
        #expect(
            lines.first
                == "  getPet (GET /pets/{id}) from the examples of \(folder.url.appending(path: "pets.yaml").path)")
        #expect(
            lines.contains {
                $0.hasSuffix(
                    """
                    not supported: #/paths/~1pets~1{id}/get/parameters/0/schema/format: the format decimal is not \
                    checked
                    """
                )
            })
        try FileManager.default.removeItem(at: folder.url.appending(path: "pets.yaml"))
        try registry.load(folder: folder.url)

        func get(_ target: String) async throws -> (Int, String) {
            let answer = try await registry.engine.answer(StubRequest(method: .get, target: target))
            return (answer.status.code, String(decoding: answer.body, as: UTF8.self))
        }
        #expect(try await get("/pets/2") == (200, "from the file"))
        #expect(try await get("/pets/5") == (200, #"{"id":1,"name":"Rex"}"#))
        let (status, body) = try await get("/pets/rex")
        #expect(status == 400)
        #expect(body.contains("#/paths/~1pets~1{id}/get/parameters/0/schema/type"))
    }

    @Test func aMalformedOperationIsRefusedByNameAndStrictRefusesTheDocument() throws {
        let folder = try CommandTests.Folder([
            "bad.yaml":
                "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 7\n  /b:\n    get:\n      responses: {'204': {description: d}}\n"
        ])
        let path = folder.url.appending(path: "bad.yaml").path
        let lines = try ServeCommand.registerExamples(ofSpecAt: path, in: StubRegistry())
        #expect(
            lines == [
                "  an operation without operationId (GET /b) from the examples of \(path)",
                "  refused: #/paths/~1a/get/responses: responses must be a map of status codes to responses",
                "1 operations from \(path); 1 refused, answered with 501",
            ])
        #expect {
            try ServeCommand.registerExamples(ofSpecAt: path, in: StubRegistry(), strict: true)
        } throws: { error in
            "\(error)" == "bad.yaml, at #/paths/~1a/get/responses: responses must be a map of status codes to responses"
        }
    }

    @Test func examplesThatMissTheirSchemasAreSummedUpInOneLineNamingTheirOperations() throws {
        let folder = try CommandTests.Folder([
            "pets.yaml": """
            openapi: 3.0.3
            info: {title: Pets, version: '1'}
            paths:
              /pets:
                get:
                  operationId: listPets
                  responses:
                    '200':
                      description: d
                      content:
                        application/json:
                          schema: {type: array, items: {type: object, required: [id]}}
                          example: [{name: Rex}]
              /pets/{id}:
                get:
                  operationId: getPet
                  responses:
                    '200':
                      description: d
                      content:
                        application/json:
                          schema: {type: object, properties: {id: {type: integer}}}
                          examples:
                            rex: {value: {id: rex}}
                            tom: {value: {id: 7}}
                    '404':
                      description: d
                      content:
                        application/json:
                          schema: {type: object, required: [message]}
                          example: {}
            """
        ])
        let path = folder.url.appending(path: "pets.yaml").path
        let lines = try ServeCommand.registerExamples(ofSpecAt: path, in: StubRegistry())
        let said = lines.filter { $0.contains("example") && !$0.contains("from the examples of") }
        #expect(
            said == [
                """
                  warning: examples that miss their schemas are served only when Prefer: example=NAME asks for \
                them (the first example that passes, or else a body made from the schema, is served instead), in 2 \
                operations: listPets, getPet
                """
            ])
    }

    @Test func warningsOfOneKindFoldIntoOneLineWithTheirCountAndFirstPlaces() {
        let warnings =
            (1...5).map { "#/paths/~1p\($0)/get: security requirements are not checked" } + [
                "#/x: the format ipv4 is not checked"
            ]
        #expect(
            ServeCommand.folded(warnings) == [
                "security requirements are not checked, in 5 places: #/paths/~1p1/get, #/paths/~1p2/get, #/paths/~1p3/get, and 2 more",
                "#/x: the format ipv4 is not checked",
            ])
    }

    @Test func theBasePathIsGivenOrTakenFromTheFirstServer() async throws {
        let folder = try CommandTests.Folder([
            "s.yaml":
                "openapi: 3.0.0\ninfo: {title: T, version: '1'}\nservers: [{url: 'https://x.example/api/1.0'}]\npaths:\n  /a:\n    get:\n      responses: {'204': {description: d}}\n"
        ])
        let path = folder.url.appending(path: "s.yaml").path
        for (basePath, target) in [("servers", "/api/1.0/a"), ("/v2", "/v2/a")] {
            let registry = StubRegistry()
            _ = try ServeCommand.registerExamples(ofSpecAt: path, in: registry, basePath: basePath)
            let answer = try await registry.engine.answer(StubRequest(method: .get, target: target))
            #expect(answer.status.code == 204)
        }
    }
}
