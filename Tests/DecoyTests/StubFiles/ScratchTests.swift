import Decoy
import Foundation
import Testing

@Test func scratch() async throws {
    let report = StubFolder(url: URL(filePath: "/work/wt-files2/stubs")).check()
    for s in report.stubs { print("STUB", s) }
    for e in report.errors { print("ERR", e) }
    for w in report.warnings { print("WARN", w) }
}
