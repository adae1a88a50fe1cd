import Decoy
import IssueReporting

#if canImport(XCTest) && !canImport(Darwin)
    import XCTest
#endif

/// Where an assertion was written, so that its failure points there and not into this library;
/// the assertions of DecoyOpenAPITesting report through it too.
package struct CallSite {
    let fileID: StaticString
    let filePath: StaticString
    let line: UInt
    let column: UInt

    package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        (self.fileID, self.filePath, self.line, self.column) = (fileID, filePath, line, column)
    }

    /// Records a failure with `message` in whichever test framework is running.
    package func fail(_ message: String) {
        #if canImport(XCTest) && !canImport(Darwin)
            // Off Darwin, IssueReporting cannot see XCTest's frames on the stack and appends a warning
            // about tests hosted in an app to every XCTest failure; XCTest is told directly instead.
            if case .xcTest = TestContext.current {
                XCTFail(message, file: filePath, line: line)
                return
            }
        #endif
        reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// `route` compiled for matching, or `nil` after reporting why it cannot be: an assertion
    /// reports rather than throws, so that one bad route does not end the test.
    func pattern(for route: Route) -> RequestPattern? {
        do {
            return try RequestPattern(route)
        } catch {
            fail("Cannot check requests against \(route): \(error)")
            return nil
        }
    }
}
