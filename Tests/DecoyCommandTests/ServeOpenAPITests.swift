import Decoy
import DecoyStubFiles
import Foundation
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

    @Test func aMalformedSpecIsRefusedNamingThePlace() throws {
        let folder = try CommandTests.Folder([
            "bad.yaml": "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses: 7\n"
        ])
        #expect {
            try ServeCommand.registerExamples(ofSpecAt: folder.url.appending(path: "bad.yaml").path, in: StubRegistry())
        } throws: { error in
            "\(error)".hasPrefix("bad.yaml, at .paths['/a'].get.responses:")
        }
    }
}
