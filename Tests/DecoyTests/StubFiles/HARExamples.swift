// swift-format-ignore-file
// What docs/recording.md shows of HAR, checked.
import Decoy
import DecoyStubFiles
import Foundation
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
}
