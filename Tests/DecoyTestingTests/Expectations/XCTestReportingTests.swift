import HTTPTypes

#if !canImport(Darwin)
    import Decoy
    import DecoyTestSupport
    import DecoyTesting
    import XCTest

    /// A failed assertion must land in XCTest when XCTest runs the test, at the assertion's file and line.
    final class XCTestReportingTests: FailureCapturingTestCase {
        func testAFailedAssertionIsAnXCTestFailureAtItsLine() throws {
            let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/user")])
            var line = 0
            let recorded = failures {
                registry.expect(.post("/users"), count: .once); line = #line
            }
            XCTAssertEqual(recorded.count, 1)
            XCTAssertEqual(recorded.first?.file, #filePath)
            XCTAssertEqual(recorded.first?.line, line)
            // "failed - " is how XCTest on Linux prefixes the message of `XCTFail`.
            XCTAssertEqual(
                recorded.first?.description,
                """
                failed - Expected exactly 1 request matching POST /users, but received 0.
                Near misses (closest first):
                  1. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users"
                """)
        }

        func testAPassingAssertionRecordsNothing() throws {
            let registry = try StubRegistry.having(received: [StubRequest(method: .post, target: "/users")])
            XCTAssertEqual(failures { registry.expect(.post("/users"), count: .once) }.count, 0)
        }
    }
#endif
