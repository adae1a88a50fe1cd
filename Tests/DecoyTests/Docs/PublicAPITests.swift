import DecoyTestSupport
import Foundation
import Testing

/// Code in `Tests/PublicAPI`, in no target, type-checked as a user's code outside the package:
/// with the modules built beside the tests and no package name, it sees only what is public,
/// where Decoy's own tests see what is `package` too.
@Suite("The public API, as code outside the package sees it", .serialized)
struct PublicAPITests {
    @Test func theChangelogsMigrationsCompile() async throws {
        let run = try await Self.typecheck("ChangelogExamples.swift")
        #expect(run.status == 0, "\(run.errors)")
    }

    @Test func allCasesWithDecoyTestingAloneSaysWhereItIs() async throws {
        let run = try await Self.typecheck("DecoyTestingAlone.swift")
        #expect(run.status != 0)
        #expect(
            run.errors.contains(
                "'allCases' is unavailable: ServingMode.allCases, with the server mode, is in DecoyServerTesting"),
            "\(run.errors)")
    }

    /// `swiftc -typecheck` of a file of `Tests/PublicAPI` against the built modules.
    static func typecheck(_ file: String) async throws -> ProgramRun {
        let products = Bundle.main.bundleURL
        let source = DocumentationSyncTests.root.appending(path: "Tests/PublicAPI/\(file)").path
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-enable-upcoming-feature", "MemberImportVisibility",
            "-I", products.appending(path: "Modules").path,
        ]
        // The C modules the Swift ones import, as SwiftPM names them to the compiler.
        for map in moduleMaps(in: products) { arguments += ["-Xcc", "-fmodule-map-file=\(map)"] }
        arguments.append(source)
        let command = arguments
        return try await offThePool { try ProgramRun("/usr/bin/env", command) }
    }

    /// The module maps SwiftPM hands the compiler, read from its build description
    /// (`.build/debug.yaml` for `.build/<triple>/debug`).
    private static func moduleMaps(in products: URL) -> [String] {
        let description = products.deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "\(products.lastPathComponent).yaml")
        let text = (try? String(contentsOf: description, encoding: .utf8)) ?? ""
        return Array(Set(text.matches(of: /-fmodule-map-file=([^"\s,]+)/).map { String($0.1) })).sorted()
    }
}
