public import Decoy
public import DecoyOpenAPI
import DecoyTesting

extension StubRegistry {
    /// Expects every stub registered, in code or from stub files, to be true to `specs`: its
    /// request one an operation accepts, its answer one the operation declares. Otherwise records
    /// a test failure here, in Swift Testing or XCTest, that lists each drift with the pointer in
    /// the stub and the pointer in the document, as ``drift(against:)-(OpenAPISpec...)`` finds them.
    /// With `strict`, a stub no document covers fails the test too.
    ///
    /// ```swift
    /// registry.expectNoDrift(against: spec)
    /// ```
    public func expectNoDrift(
        against specs: OpenAPISpec..., strict: Bool = false,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let report = drift(against: specs)
        guard report.hasDrift(strict: strict) else { return }
        let drifted = Set(report.drift.map(\.stub)).count
        var lines =
            report.drift.isEmpty
            ? []
            : ["Expected the stubs to be true to the OpenAPI document, but \(drifted) of \(report.stubs) drifted:"]
                + report.drift.map { "  \($0)" }
        if strict, !report.uncovered.isEmpty {
            lines.append(
                "Expected every stub to stand for an operation of the OpenAPI document, but "
                    + "\(report.uncovered.count) of \(report.stubs) stand for none:")
            lines += report.uncovered.map { "  \($0)" }
        }
        CallSite(fileID: fileID, filePath: filePath, line: line, column: column).fail(lines.joined(separator: "\n"))
    }
}
