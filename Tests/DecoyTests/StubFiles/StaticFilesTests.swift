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

    /// The fields WireMock 2.35.1 sends with a file of `__files/` (`Last-Modified`, `Accept-Ranges`),
    /// and the answers it gives to a range and to `If-Modified-Since`, checked against it.
    @Test(arguments: ServingMode.allCases)
    func aFileIsServedWithItsDateAndByRange(_ serving: ServingMode) async throws {
        let folder = try ScratchFolder(["__files/docs/a.json": #"{"x":1}"# + "\n"])
        let modified = Date(timeIntervalSince1970: 1_795_784_077.75)
        try FileManager.default.setAttributes(
            [.modificationDate: modified], ofItemAtPath: folder.url.appending(path: "__files/docs/a.json").path)
        let registry = StubRegistry()
        try registry.load(folder: folder.url)
        func get(_ fields: HTTPFields = [:]) async throws -> Outcome {
            try await serving.exchange(registry, .get, "/docs/a.json", headerFields: fields)
        }
        let whole = try await get()
        #expect(whole.status == 200)
        #expect(whole.headerFields[.lastModified] == "Fri, 27 Nov 2026 12:54:37 GMT")
        #expect(whole.headerFields[.acceptRanges] == "bytes")
        #expect(whole.text == #"{"x":1}"# + "\n")

        for (range, text, contentRange) in [
            ("bytes=0-1", #"{""#, "bytes 0-1/8"), ("bytes=-3", "1}\n", "bytes 5-7/8"),
            ("bytes=5-", "1}\n", "bytes 5-7/8"), ("bytes=6-99", "}\n", "bytes 6-7/8"),
        ] {
            let part = try await get([.range: range])
            #expect(part.status == 206, "\(range)")
            #expect(part.text == text, "\(range)")
            #expect(part.headerFields[.contentRange] == contentRange, "\(range)")
            #expect(part.headerFields[.lastModified] != nil, "\(range)")
        }
        let beyond = try await get([.range: "bytes=50-60"])
        #expect(beyond.status == 416)
        #expect(beyond.headerFields[.contentRange] == "bytes */8")
        // Several ranges, which WireMock sends as multipart/byteranges, get the whole file.
        #expect(try await get([.range: "bytes=0-1,3-4"]).status == 200)

        let unchanged = try await get([.ifModifiedSince: "Fri, 27 Nov 2026 12:54:37 GMT"])
        #expect(unchanged.status == 304)
        #expect(unchanged.text.isEmpty)
        #expect(try await get([.ifModifiedSince: "Fri, 27 Nov 2026 12:54:36 GMT"]).status == 200)
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
