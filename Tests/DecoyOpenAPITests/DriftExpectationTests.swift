import Decoy
import DecoyClient
import DecoyOpenAPI
import DecoyOpenAPITesting
import Foundation
import HTTPTypes
import Testing

/// `expectNoDrift(against:)` fails the running test, at its own line, with the drift the check finds.
@Suite("Expecting stubs true to their document")
struct DriftExpectationTests {
    static func registry(idType: String) throws -> (StubRegistry, OpenAPISpec) {
        let spec = try OpenAPISpec(data: Data(StubDriftTests.spec.utf8), source: "pets.yaml")
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.contentType: "application/json"], json: #"{"id": \#(idType), "name": "Rex"}"#),
            for: .get("/pets/{id}"))
        try registry.register(StubResponse(text: "ok"), for: .get("/health"))
        return (registry, spec)
    }

    @Test func aDriftedStubFailsTheTestAtTheAssertion() throws {
        let (registry, spec) = try Self.registry(idType: #""1""#)
        let issues = Mutex<[(message: String, line: Int?)]>([])
        var line = 0
        withKnownIssue {
            registry.expectNoDrift(against: spec); line = #line
        } matching: { issue in
            issues.withLock {
                $0.append((issue.comments.map(\.rawValue).joined(separator: "\n"), issue.sourceLocation?.line))
            }
            return true
        }
        let recorded = issues.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.line == line)
        #expect(
            recorded.first?.message == """
                Expected the stubs to be true to the OpenAPI document, but 1 of 2 drifted:
                  GET /pets/{id}: getPet (GET /pets/{id}): /response/jsonBody/id: expected integer, got "1" \
                (pets.yaml#/components/schemas/Pet/properties/id/type)
                """)
    }

    @Test func stubsTrueToTheDocumentPassAndAStubItDoesNotCoverFailsOnlyWhenStrict() throws {
        let (registry, spec) = try Self.registry(idType: "1")
        registry.expectNoDrift(against: spec)
        withKnownIssue { registry.expectNoDrift(against: spec, strict: true) }
        #expect(registry.drift(against: spec).uncovered.map(\.stub) == ["GET /health"])
    }

    @Test func theDocumentsOwnExamplesAreLeftOut() throws {
        let (registry, spec) = try Self.registry(idType: "1")
        try registry.registerExamples(of: spec)
        #expect(registry.drift(against: spec).stubs == 2)
    }
}

#if !canImport(Darwin)
    import DecoyTestSupport
    import XCTest

    /// Under XCTest, the failure is XCTest's, at the assertion's file and line.
    final class DriftExpectationXCTests: FailureCapturingTestCase {
        func testADriftedStubIsAnXCTestFailureAtItsLine() throws {
            let (registry, spec) = try DriftExpectationTests.registry(idType: #""1""#)
            var line = 0
            let recorded = failures {
                registry.expectNoDrift(against: spec); line = #line
            }
            XCTAssertEqual(recorded.count, 1)
            XCTAssertEqual(recorded.first?.file, #filePath)
            XCTAssertEqual(recorded.first?.line, line)
            XCTAssertTrue(recorded.first?.description.contains("/response/jsonBody/id") ?? false)
        }
    }
#endif
