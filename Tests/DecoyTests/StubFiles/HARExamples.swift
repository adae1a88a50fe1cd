// swift-format-ignore-file
// What docs/recording.md shows of HAR, checked.
import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

@Suite("HAR, as documented")
struct HARExamples {
    @Test func importsTheXHRAndFetchEntries() throws {
        let harFile = HARImportTests.corpus.appending(path: "chrome-reqres-xhr.har")
        let stubsFolder = HARImportTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: stubsFolder) }
        var importer = HARImport()
        importer.resourceTypes = ["xhr", "fetch"]
        let report = try importer.write(file: harFile, to: stubsFolder)
        print(report)
        #expect(report.imported == 2)
    }

    @Test func writesTheJournal() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "hi"), for: .get("/hello"))
        _ = try await StubTransport(registry).send(HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/hello"), body: nil)
        let harFile = HARImportTests.temporaryFolder().appendingPathExtension("har")
        defer { try? FileManager.default.removeItem(at: harFile) }
        try registry.journal.har().write(to: harFile)
        #expect(try HARImport().write(file: harFile, to: harFile.deletingPathExtension()).imported == 1)
        try? FileManager.default.removeItem(at: harFile.deletingPathExtension())
    }
}
