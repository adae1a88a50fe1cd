import ArgumentParser
import Foundation
import Testing

@testable import DecoyCommand

/// `decoy check STUBS --openapi SPEC`: each drift named by stub file and line, operation, what
/// differs and both pointers; exit 1 on drift; JSON for CI; stubs the document does not cover apart.
@Suite("decoy check --openapi")
struct CheckOpenAPITests {
    static let spec = PetsDocument.yaml(server: "https://pets.example.com/v1")

    static let good = """
        {"request": {"method": "GET", "urlPathTemplate": "/v1/pets/{id}"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                      "jsonBody": {"id": 1, "name": "Rex"}}}
        """

    static let drifted = """
        [
          {"request": {"method": "GET", "urlPath": "/health"}, "response": {"status": 200}},
          {"request": {"method": "GET", "urlPath": "/v1/pets/2"},
           "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                        "jsonBody": {"id": "2", "name": "Tom"}}}
        ]
        """

    /// A folder with the document beside a `stubs/` folder holding `stubs`.
    private func makeFolder(_ stubs: [String: String]) throws -> CommandTests.Folder {
        let folder = try CommandTests.Folder(["pets.yaml": Self.spec])
        try FileManager.default.createDirectory(
            at: folder.url.appending(path: "stubs"), withIntermediateDirectories: true)
        for (name, text) in stubs { try folder.write("stubs/\(name)", text) }
        return folder
    }

    private func arguments(_ folder: CommandTests.Folder) -> [String] {
        [folder.url.appending(path: "stubs").path, "--openapi", folder.url.appending(path: "pets.yaml").path]
    }

    private func report(_ folder: CommandTests.Folder, _ more: [String] = []) throws -> (output: String, passed: Bool) {
        try CheckCommand.parse(arguments(folder) + ["--openapi-base-path", "servers"] + more).openAPIReport()
    }

    static let idType =
        "pets.yaml#/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/properties/id/type"

    @Test func stubsTrueToTheDocumentPassAndADriftedOneFailsNamedByFileAndLine() throws {
        let folder = try makeFolder(["good.json": Self.good])
        let passing = try report(folder)
        #expect(passing.passed, "\(passing.output)")
        #expect(passing.output.hasSuffix(": 1 stub against \(folder.url.path)/pets.yaml: no drift"))

        try folder.write("stubs/more.json", Self.drifted)
        let failing = try report(folder)
        #expect(!failing.passed)
        let lines = failing.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"error: more.json:3: getPet (GET /v1/pets/{id}): /response/jsonBody/id: expected integer, "#
                + #"got "2" (\#(Self.idType))"#
        )
        #expect(lines.contains("warning: not covered: more.json:2: no path of the OpenAPI documents covers /health"))
        #expect(lines.last?.hasSuffix("1 stub drifted (1 problem), 1 not covered") == true, "\(failing.output)")
        #expect(throws: ExitCode.failure) {
            try CheckCommand.parse(arguments(folder) + ["--openapi-base-path", "/v1"]).run()
        }
    }

    @Test func strictMakesAnUncoveredStubAnError() throws {
        let folder = try makeFolder(["health.json": #"{"request": {"urlPath": "/health"}, "response": {}}"#])
        #expect(try report(folder).passed)
        let strict = try report(folder, ["--strict"])
        #expect(!strict.passed)
        #expect(strict.output.contains("error: not covered: health.json:1: "), "\(strict.output)")
    }

    @Test func jsonNamesEveryFieldForCI() throws {
        let folder = try makeFolder(["more.json": Self.drifted])
        let (output, passed) = try report(folder, ["--format", "json"])
        #expect(!passed)
        struct Output: Decodable {
            struct Report: Decodable {
                let stubs: Int
                let drift: [[String: String]]
                let uncovered: [[String: String]]
            }
            let passed: Bool
            let report: Report
        }
        let decoded = try JSONDecoder().decode(Output.self, from: Data(output.utf8))
        #expect(!decoded.passed && decoded.report.stubs == 2)
        #expect(
            decoded.report.drift == [
                [
                    "stub": "more.json:3", "operation": "getPet (GET /v1/pets/{id})",
                    "message": #"expected integer, got "2""#, "stubPointer": "/response/jsonBody/id",
                    "documentPointer": Self.idType,
                ]
            ])
        #expect(decoded.report.uncovered.map { $0["stub"] } == ["more.json:2"])
    }
}
