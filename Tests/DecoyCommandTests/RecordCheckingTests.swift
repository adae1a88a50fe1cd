import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decoy record --openapi` and `decoy record --compare`, as processes: what they flag and
/// report, and that the real responses go on unchanged.
@Suite("decoy record, checking what passes through")
struct RecordCheckingTests {
    static let spec = PetsDocument.yaml()

    static let json: HTTPFields = [.contentType: "application/json"]

    /// A real API whose second pet breaks the document and differs from the stub.
    static func realAPI() throws -> StubRegistry {
        let real = StubRegistry()
        try real.register(StubResponse(headerFields: json, json: #"{"id": 1, "name": "Rex"}"#), for: .get("/pets/1"))
        try real.register(StubResponse(headerFields: json, json: #"{"id": "2", "name": "Tom"}"#), for: .get("/pets/2"))
        return real
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
        return folder
    }

    /// Stops the process and gives its exit status and what it printed after it started.
    static func stop(_ process: ServedProcess) async throws -> (status: Int32, output: String) {
        let status = try await process.stop(with: SIGINT)
        let rest = await offThePool { [program = process.program] in
            var text = ""
            while case let data = program.nextOutput(), !data.isEmpty { text += String(decoding: data, as: UTF8.self) }
            return text
        }
        return (status, process.startOutput + rest)
    }

    @Test func recordOpenAPIFlagsWhatBreaksTheDocumentAndRecordsItAsItCame() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appending(path: "pets.yaml")
        try Data(Self.spec.utf8).write(to: spec)
        try await withMockServer(registry: try Self.realAPI()) { upstream in
            let recorder = try await ServedProcess.start(arguments: [
                "record", "--target", upstream.baseURL.absoluteString, folder.appending(path: "out").path,
                "--openapi", spec.path, "--port", "0",
            ])
            let session = URLSession(configuration: .ephemeral)
            let (second, _) = try await session.data(from: URL(string: recorder.baseURL + "/pets/2")!)
            #expect(String(decoding: second, as: UTF8.self) == #"{"id": "2", "name": "Tom"}"#)
            _ = try await session.data(from: URL(string: recorder.baseURL + "/pets/1")!)
            let (page, _) = try await session.data(from: URL(string: recorder.baseURL + "/__admin/requests")!)
            let events = try #require(
                (try JSONSerialization.jsonObject(with: page) as? [String: Any])?["requests"] as? [[String: Any]])
            #expect(events.map { ($0["drift"] as? [[String: Any]])?.count } == [nil, 1])

            let (status, output) = try await Self.stop(recorder)
            #expect(status == 0)
            let warnings = output.split(separator: "\n").filter { $0.contains(" differs from ") }
            #expect(warnings.count == 1, "\(output)")
            #expect(
                warnings.first?.hasSuffix(
                    """
                    GET /pets/2 differs from getPet (GET /pets/{id}): /response/jsonBody/id: expected integer, \
                    got "2" (pets.yaml#/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema/\
                    properties/id/type)
                    """) == true, "\(output)")
            let recorded = try FileManager.default.contentsOfDirectory(
                atPath: folder.appending(path: "out/mappings").path)
            #expect(recorded.sorted() == ["get-pets-1.json", "get-pets-2.json"])
        }
    }

    @Test func recordCompareReportsWhereTheRealAPIDiffersAndWritesNoFile() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stub = folder.appending(path: "mappings/pets.json")
        let stubText = """
            {"request": {"method": "GET", "urlPathTemplate": "/pets/{id}"},
             "response": {"status": 200, "jsonBody": {"id": 1, "name": "Rex"}}}
            """
        try Data(stubText.utf8).write(to: stub)
        try await withMockServer(registry: try Self.realAPI()) { upstream in
            let comparing = try await ServedProcess.start(arguments: [
                "record", "--target", upstream.baseURL.absoluteString, "--compare", folder.path, "--format", "json",
                "--log", "none", "--port", "0",
            ])
            let session = URLSession(configuration: .ephemeral)
            for path in ["/pets/1", "/pets/2", "/health"] {
                _ = try await session.data(from: URL(string: comparing.baseURL + path)!)
            }
            let (status, output) = try await Self.stop(comparing)
            #expect(status == 1)
            let json = try #require(output.firstRange(of: "{").map { output[$0.lowerBound...] })
            let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let differences = try #require(report["differences"] as? [[String: Any]])
            // The id's type changed; the name is a value of another pet than the stub's.
            #expect(
                differences.map { $0["pointer"] as? String } == ["/response/jsonBody/id", "/response/jsonBody/name"])
            #expect(differences.first?["stub"] as? String == "mappings/pets.json:1")
            #expect(report["compared"] as? Int == 2)
            #expect((report["skipped"] as? [[String: Any]])?.map { $0["request"] as? String } == ["GET /health"])
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "mappings").path)
            #expect(files == ["pets.json"])
            #expect(try String(contentsOf: stub, encoding: .utf8) == stubText)
        }
    }
}
