import ArgumentParser
import Decoy
import DecoyOpenAPI
import DecoyStubFiles
import Foundation

/// `decoy check --openapi`: the options that check the stubs against OpenAPI documents.
struct OpenAPICheckOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Also check every stub against this OpenAPI 3.0 or 3.1 document (JSON or YAML): its request must be one an \
            operation accepts, its answer one the operation declares. Repeat it for more documents.
            """,
            valueName: "spec"))
    var openapi: [String] = []

    @Option(
        name: .customLong("openapi-base-path"),
        help: ArgumentHelp(
            """
            The path the stubs put before the --openapi documents' paths, such as /api/1.0; "servers" takes the \
            path of each document's first servers URL.
            """,
            valueName: "path"))
    var basePath: String?

    @Flag(help: "With --openapi, a stub no document covers is an error, not a warning.")
    var strict = false

    @Option(help: "With --openapi, how to write the report: text, or json for CI.")
    var format: ReportFormat = .text

    enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }
}

extension CheckCommand {
    /// Checks the folder's stubs, then each stub that loads against the documents; exits 1 on
    /// an error in the folder or on drift (and, with `--strict`, on a stub no document covers).
    func checkAgainstOpenAPI() throws {
        let (output, passed) = try openAPIReport()
        print(output)
        if !passed { throw ExitCode.failure }
    }

    /// The report, as text or JSON, and whether the check passes.
    func openAPIReport() throws -> (output: String, passed: Bool) {
        let specs = try openAPI.openapi.map { try ServeCommand.spec(at: $0, basePath: openAPI.basePath) }
        let (stubs, folderReport) = StubFolder(
            url: URL(filePath: folder, directoryHint: .isDirectory), templatesEveryResponse: globalResponseTemplating,
            webhookAllowedHosts: Set(webhookAllowedHosts)
        ).compiledStubs()
        let report = StubDriftCheck(specs: specs).check(
            stubs.map { .init(place: "\($0.loaded.file):\($0.loaded.line)", route: $0.loaded.route, stub: $0.stub) })
        let fails = !folderReport.isValid || report.hasDrift(strict: openAPI.strict)
        switch openAPI.format {
        case .json:
            struct Output: Encodable {
                let folder: String
                let documents: [String]
                let errors: [String]
                let report: StubDriftReport
                let passed: Bool
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let output = Output(
                folder: folder, documents: openAPI.openapi, errors: folderReport.errors.map(\.description),
                report: report, passed: !fails)
            return (String(decoding: try encoder.encode(output), as: UTF8.self), !fails)
        case .text:
            var lines = folderReport.errors.map { "error: \($0)" } + report.drift.map { "error: \($0)" }
            lines += report.uncovered.map { "\(openAPI.strict ? "error" : "warning"): not covered: \($0)" }
            lines += report.skipped.map { "note: not checked: \($0)" }
            let drifted = Set(report.drift.map(\.stub)).count
            let parts = [
                drifted == 0
                    ? "no drift" : "\(count(drifted, "stub")) drifted (\(count(report.drift.count, "problem")))",
                report.uncovered.isEmpty ? nil : "\(report.uncovered.count) not covered",
                report.skipped.isEmpty ? nil : "\(report.skipped.count) not checked",
                folderReport.isValid ? nil : count(folderReport.errors.count, "error"),
            ]
            lines.append(
                "\(folder): \(count(report.stubs, "stub")) against \(openAPI.openapi.joined(separator: ", ")): "
                    + parts.compactMap { $0 }.joined(separator: ", "))
            return (lines.joined(separator: "\n"), !fails)
        }
    }
}
