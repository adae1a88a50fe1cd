import Decoy
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// WireMock serves a `GET` that no stub matches from `__files/` when a file fits its path; so
/// does every serving of Decoy, from the registry, reading the file per request.
@Suite("Stub files: __files served statically")
struct StaticFilesTests {
    static let files = [
        "mappings/stub.json":
            #"{"request": {"method": "GET", "url": "/docs/stubbed.json"}, "response": {"body": "stub"}}"#,
        "__files/docs/a.json": #"{"a": 1}"#,
        "__files/docs/stubbed.json": "file",
        "__files/docs/index.html": "<p>docs</p>",
        "__files/docs/sub/index.json": #"{"sub": true}"#,
        "__files/docs/sub/index.html": "<p>not this</p>",
        "__files/docs/empty/.keep": "",
        "__files/docs/other/README": "read me",
        "__files/sp ace.txt": "spaced",
        "__files/style.css": "p {}",
    ]

    @Test(arguments: ServingMode.allCases)
    func aFileAnswersAGetNoStubMatches(_ serving: ServingMode) async throws {
        let folder = try ScratchFolder(Self.files)
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        func get(_ target: String, _ method: HTTPRequest.Method = .get) async throws -> (Int, String, String?) {
            let outcome = try await serving.exchange(registry, method, target)
            return (outcome.status, outcome.text, outcome.headerFields[.contentType])
        }
        #expect(try await get("/docs/a.json") == (200, #"{"a": 1}"#, "application/json"))
        #expect(try await get("/docs/a.json?page=2") == (200, #"{"a": 1}"#, "application/json"))
        #expect(try await get("/docs") == (200, "<p>docs</p>", "text/html"))
        #expect(try await get("/docs/") == (200, "<p>docs</p>", "text/html"))
        #expect(try await get("/docs/sub") == (200, #"{"sub": true}"#, "application/json"))
        #expect(try await get("/sp%20ace.txt") == (200, "spaced", "text/plain"))
        #expect(try await get("/style.css") == (200, "p {}", "text/css"))
        // As WireMock: a type without a character set, application/json for what it does not know.
        #expect(try await get("/docs/other/README").2 == "application/json")
        // A stub wins over a file; a folder without an index is forbidden; a missing file and other methods get the
        // 404.
        #expect(try await get("/docs/stubbed.json").1 == "stub")
        #expect(try await get("/docs/empty").0 == 403)
        #expect(try await get("/").0 == 404)
        #expect(try await get("/docs/missing.json").0 == 404)
        #expect(try await get("/docs/a.json", .post).0 == 404)
        #expect(try await get("/docs/a.json", .head).0 == 404)
    }

    @Test func aServedFileIsJournaledAsUnmatched() async throws {
        let folder = try ScratchFolder(Self.files)
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        let response = try await registry.engine.answer(StubRequest(method: .get, target: "/docs/a.json"))
        #expect(response.status == .ok)
        let entry = try #require(registry.journal.entries.first)
        #expect(entry.route == nil)
        #expect(entry.response.status == .ok)
    }

    @Test func aFileAddedWhileServingIsServed() async throws {
        let folder = try ScratchFolder(Self.files)
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        let request = StubRequest(method: .get, target: "/late.txt")
        #expect(try await registry.engine.answer(request).status == .notFound)
        try folder.write("__files/late.txt", "late")
        #expect(try await registry.engine.answer(request).body == Data("late".utf8))
    }

    @Test(arguments: [
        "/../mappings/stub.json", "/docs/../../mappings/stub.json", "/%2e%2e/mappings/stub.json", "/link.txt",
        "/linked/secret.txt",
    ])
    func nothingOutsideFilesIsServed(_ target: String) async throws {
        let outside = try ScratchFolder(["secret.txt": "secret"])
        let folder = try ScratchFolder(Self.files)
        try folder.link("__files/link.txt", to: outside.url.appending(path: "secret.txt").path)
        try folder.link("__files/linked", to: outside.url.path)
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        let response = try await registry.engine.answer(StubRequest(method: .get, target: target))
        #expect(response.status == .notFound)
    }

    @Test func aLinkThatStaysInsideFilesIsServed() async throws {
        let folder = try ScratchFolder(Self.files)
        try folder.link("__files/alias.json", to: "docs/a.json")
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        let response = try await registry.engine.answer(StubRequest(method: .get, target: "/alias.json"))
        #expect(response.body == Data(#"{"a": 1}"#.utf8))
    }

    @Test func aFileOverTheLimitIsRefusedInWords() async throws {
        let folder = try ScratchFolder(Self.files)
        let big = folder.url.appending(path: "__files/big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(StubRegistry.maximumStaticFileSize + 1))
        try handle.close()
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        let response = try await registry.engine.answer(StubRequest(method: .get, target: "/big.bin"))
        #expect(response.status == .internalServerError)
        #expect(String(decoding: response.body, as: UTF8.self).contains("__files/big.bin has 16777217 bytes"))
    }

    @Test func withoutAFolderNothingIsServedFromFiles() async throws {
        let response = try await StubRegistry().engine.answer(StubRequest(method: .get, target: "/docs/a.json"))
        #expect(response.status == .notFound)
    }
}
