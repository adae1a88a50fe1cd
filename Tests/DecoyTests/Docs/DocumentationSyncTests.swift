import Foundation
import Testing

/// Every Swift example in docs/ must stand, line for line, in the example tests, so that an
/// example that stops compiling or working fails the build instead of misleading a reader.
@Suite("Documentation examples")
struct DocumentationSyncTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static var pages: [String] {
        let docs = root.appending(path: "docs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted()
    }

    @Test func docsHavePages() {
        #expect(Self.pages.contains("getting-started.md"))
        #expect(Self.pages.contains("client.md"))
        #expect(Self.pages.contains("server.md"))
        #expect(Self.pages.contains("testing.md"))
    }

    @Test(arguments: pages)
    func everySwiftExampleIsATest(_ page: String) throws {
        let text = try String(contentsOf: Self.root.appending(path: "docs/\(page)"), encoding: .utf8)
        let tests = try Self.exampleSources()
        for block in Self.swiftBlocks(in: text) {
            let found = Self.contains(tests, block)
            #expect(found, "docs/\(page): this example is not in the example tests:\n\(block.joined(separator: "\n"))")
        }
    }

    /// Swift blocks, minus those preceded by `<!-- not a test: … -->`, as trimmed non-empty lines.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        enum State {
            case prose(skipNextBlock: Bool)
            case checked([String])
            case unchecked
        }
        var state = State.prose(skipNextBlock: false)
        var blocks: [[String]] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            switch state {
            case .prose(let skip):
                if trimmed.hasPrefix("<!-- not a test") {
                    state = .prose(skipNextBlock: true)
                } else if trimmed == "```swift" {
                    state = skip ? .unchecked : .checked([])
                } else if trimmed.hasPrefix("```") {
                    state = .unchecked
                }
            case .checked(let lines):
                if trimmed == "```" {
                    blocks.append(lines); state = .prose(skipNextBlock: false)
                } else if !trimmed.isEmpty {
                    state = .checked(lines + [trimmed])
                }
            case .unchecked:
                if trimmed == "```" { state = .prose(skipNextBlock: false) }
            }
        }
        return blocks.filter { !$0.isEmpty }
    }

    /// The changelog's migrations are code a user writes: each Swift block among them stands in
    /// the example tests too, where the ones that name public API are compiled outside the package
    /// (`PublicAPITests`).
    @Test func everySwiftExampleOfTheChangelogIsATest() throws {
        let text = try String(contentsOf: Self.root.appending(path: "CHANGELOG.md"), encoding: .utf8)
        let tests = try Self.exampleSources()
        for block in Self.swiftBlocks(in: text) {
            #expect(
                Self.contains(tests, block),
                "CHANGELOG.md: this example is not in the example tests:\n\(block.joined(separator: "\n"))")
        }
    }

    static func exampleSources() throws -> [String] {
        let folder = root.appending(path: "Tests")
        var lines: [String] = []
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix("Examples.swift") {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            lines += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return lines
    }

    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard block.count <= lines.count else { return false }
        return (0...(lines.count - block.count)).contains { start in
            lines[start..<(start + block.count)].elementsEqual(block)
        }
    }
}
