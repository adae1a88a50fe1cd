import HTTPTypes

#if !canImport(Darwin)
    import Decoy
    import DecoyTesting
    import XCTest

    /// A failed assertion must land in XCTest when XCTest runs the test, at the assertion's file and line.
    ///
    /// XCTest on Linux has no `XCTExpectFailure`, so this case takes the failures from
    /// `recordFailure`, where every XCTest assertion ends, while it is told to.
    final class XCTestReportingTests: XCTestCase {
        private var captured: [(description: String, file: String, line: Int)]?

        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard captured != nil else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured?.append((description, filePath, lineNumber))
        }

        func testAFailedAssertionIsAnXCTestFailureAtItsLine() throws {
            let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/user")])
            captured = []
            registry.expect(.post("/users"), count: .once); let line = #line
            let failures = captured ?? []
            captured = nil
            XCTAssertEqual(failures.count, 1)
            XCTAssertEqual(failures.first?.file, #filePath)
            XCTAssertEqual(failures.first?.line, line)
            // "failed - " is how XCTest on Linux prefixes the message of `XCTFail`.
            XCTAssertEqual(
                failures.first?.description,
                """
                failed - Expected exactly 1 request matching POST /users, but received 0.
                Near misses (closest first):
                  1. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users"
                """)
        }

        func testAPassingAssertionRecordsNothing() throws {
            let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/users")])
            captured = []
            registry.expect(.post("/users"), count: .once)
            XCTAssertEqual(captured?.count, 0)
            captured = nil
        }
    }
#endif
