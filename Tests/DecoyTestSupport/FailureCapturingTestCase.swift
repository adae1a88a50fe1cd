#if !canImport(Darwin)
    public import XCTest

    /// An XCTest case that takes the failures its assertions record, so that a test can check
    /// where and how an assertion fails.
    ///
    /// XCTest on Linux has no `XCTExpectFailure`, so the failures are taken from `recordFailure`,
    /// where every XCTest assertion ends, while ``failures(of:)`` runs.
    open class FailureCapturingTestCase: XCTestCase {
        /// A failure an assertion recorded.
        public struct Failure: Sendable {
            /// What the assertion said, as XCTest words it.
            public let description: String
            /// The file the failure is reported at.
            public let file: String
            /// The line the failure is reported at.
            public let line: Int
        }

        private var captured: [Failure]?

        override open func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            guard captured != nil else {
                return super.recordFailure(
                    withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
            }
            captured?.append(Failure(description: description, file: filePath, line: lineNumber))
        }

        /// The failures recorded while `body` runs, which fail the test no more.
        public func failures(of body: () throws -> Void) rethrows -> [Failure] {
            captured = []
            defer { captured = nil }
            try body()
            return captured ?? []
        }
    }
#endif
