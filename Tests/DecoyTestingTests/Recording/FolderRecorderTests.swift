import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Recording inside a test: a real upstream on loopback the first time, the stored files after.
@Suite("Recording in tests")
struct FolderRecorderTests {
    /// A real API: a user, a poll that answers differently the second time, a PNG, a login.
    static func upstreamStubs() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { _ in
                // A date that differs on every run, as a real server's does.
                StubResponse(headerFields: [.date: "\(Date().timeIntervalSince1970)"], json: #"{"id":1,"name":"Ada"}"#)
            }, for: .get("/users/1"))
        try registry.register(
            SequenceStub(first: [StubResponse(text: "pending")], then: StubResponse(text: "done")), for: .get("/poll"))
        try registry.register(
            StubResponse(headerFields: [.contentType: "image/png"], body: Self.png), for: .get("/logo.png"))
        try registry.register(
            StubResponse(status: .created, json: #"{"token":"t-123","user":"ada"}"#), for: .post("/login"))
        return registry
    }

    /// Bytes that are no UTF-8 text.
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0x00])

    static let visits: [(method: HTTPRequest.Method, path: String, body: String?)] = [
        (.get, "/users/1", nil), (.get, "/poll", nil), (.get, "/poll", nil), (.get, "/logo.png", nil),
        (.post, "/login", #"{"user":"ada","password":"s3cret"}"#),
    ]

    /// What the client saw of each visit: status and body.
    static func visit(_ transport: any Transport, at base: URL) async throws -> [String] {
        var seen: [String] = []
        for visit in visits {
            let authority = base.port.map { "\(base.host ?? ""):\($0)" } ?? base.host
            var request = HTTPRequest(method: visit.method, scheme: base.scheme, authority: authority, path: visit.path)
            if visit.body != nil { request.headerFields[.contentType] = "application/json" }
            let (response, data) = try await transport.send(request, body: visit.body.map { Data($0.utf8) })
            seen.append("\(response.status.code) \(String(data: data, encoding: .utf8) ?? data.base64EncodedString())")
        }
        return seen
    }

    static let expected = [
        #"200 {"id":1,"name":"Ada"}"#, "200 pending", "200 done", "200 " + png.base64EncodedString(),
        #"201 {"token":"t-123","user":"ada"}"#,
    ]

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decoy-folder-recorder-\(UUID().uuidString)")
    }

    /// Every file under `folder`, by its path inside it, with its bytes.
    static func files(in folder: URL) -> [String: Data] {
        let paths = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var files: [String: Data] = [:]
        for path in paths {
            if let data = FileManager.default.contents(atPath: folder.appending(path: path).path),
                !path.hasSuffix("mappings"), !path.hasSuffix("__files")
            {
                files[path] = data
            }
        }
        return files
    }

    /// Records `visits` from a fresh upstream into `folder` with `mode`, in-process.
    static func record(into folder: URL, mode: RecordMode) async throws -> [String] {
        try await withMockServer(registry: try upstreamStubs()) { upstream in
            let recorder = try FolderRecorder(folder: folder, upstream: upstream.baseURL, mode: mode, environment: [:])
            let seen = try await visit(StubTransport(recorder.registry), at: upstream.baseURL)
            try recorder.finish()
            return seen
        }
    }

    @Test func missingRecordsOnTheFirstRunAndReplaysWithTheUpstreamStopped() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await Self.record(into: folder, mode: .missing) == Self.expected)
        // One file per request, the poll's two answers as a sequence, the PNG in __files.
        #expect(
            Self.files(in: folder).keys.sorted() == [
                "__files/get-logo-png.bin", "mappings/get-logo-png.json", "mappings/get-poll.json",
                "mappings/get-users-1.json", "mappings/post-login.json",
            ])
        let login = String(decoding: Self.files(in: folder)["mappings/post-login.json"] ?? Data(), as: UTF8.self)
        #expect(login.contains("<redacted>") && !login.contains("t-123") && !login.contains("s3cret"))

        // The upstream is gone: a recorder that only replays answers from the files.
        let recorder = try FolderRecorder(
            folder: folder, upstream: URL(string: "http://127.0.0.1:1")!, mode: .none, environment: [:])
        let replayed = try await Self.visit(StubTransport(recorder.registry), at: URL(string: "http://api.test")!)
        #expect(replayed == Self.expected.map { $0.replacingOccurrences(of: "t-123", with: "<redacted>") })
        #expect(try recorder.finish().isEmpty)
    }

    @Test func reRecordingAnUnchangedAPILeavesTheFilesByteIdentical() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.record(into: folder, mode: .all)
        let first = Self.files(in: folder)
        _ = try await Self.record(into: folder, mode: .all)
        #expect(Self.files(in: folder) == first)
        #expect(first.count == 5)
        // No date, which the upstream sends with every answer.
        #expect(!first.values.contains { String(decoding: $0, as: UTF8.self).contains("\"Date\"") })
    }

    @Test func noneFailsNamingTheRequestAndTheFolderAndNeverReachesTheUpstream() async throws {
        let folder = Self.temporaryFolder()
        let upstream = try Self.upstreamStubs()
        try await withMockServer(registry: upstream) { server in
            let recorder = try FolderRecorder(folder: folder, upstream: server.baseURL, mode: .none, environment: [:])
            let request = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/1")
            let (response, _) = try await StubTransport(recorder.registry).send(request, body: nil)
            #expect(response.status == .notFound)
            #expect(
                throws: DecoyError.recordingFailed(
                    folder: folder.path,
                    problems: [
                        "GET /users/1 has no stored answer in \(folder.path) (record mode none); record it with DECOY_RECORD=missing"
                    ])
            ) { try recorder.finish() }
        }
        #expect(upstream.journal.totalCount == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func theEnvironmentVariableOverridesTheMode() async throws {
        let folder = Self.temporaryFolder()
        let upstream = URL(string: "http://127.0.0.1:1")!
        let recorder = try FolderRecorder(
            folder: folder, upstream: upstream, mode: .missing, environment: ["DECOY_RECORD": "none"])
        #expect(recorder.mode == .none)
        #expect(recorder.registry.mappings.isEmpty)
        #expect(
            try FolderRecorder(folder: folder, upstream: upstream, environment: ["DECOY_RECORD": "ALL"]).mode == .all)
        #expect(try FolderRecorder(folder: folder, upstream: upstream, environment: [:]).mode == .none)
        #expect(
            throws: DecoyError.recordingFailed(
                folder: "any folder",
                problems: ["DECOY_RECORD=sometimes is not a record mode: use missing, all, none, once"])
        ) { try FolderRecorder(folder: folder, upstream: upstream, environment: ["DECOY_RECORD": "sometimes"]) }
    }

    @Test func onceRecordsOnlyWhileTheFolderIsEmpty() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await Self.record(into: folder, mode: .once)
        #expect(Self.files(in: folder).count == 5)
        let recorder = try FolderRecorder(
            folder: folder, upstream: URL(string: "http://127.0.0.1:1")!, mode: .once, environment: [:])
        #expect(
            !recorder.registry.mappings.contains {
                $0.route == Route(method: nil, path: "/**", priority: Int(Int32.max))
            })
        let request = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/2")
        _ = try await StubTransport(recorder.registry).send(request, body: nil)
        #expect(throws: DecoyError.self) { try recorder.finish() }
    }

    @Test func anUpstreamThatFailsFailsWithTheTransportErrorAndWritesNothing() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A port nothing listens on any more.
        let closed = try await withMockServer(registry: StubRegistry()) { $0.baseURL }
        let recorder = try FolderRecorder(folder: folder, upstream: closed, mode: .missing, environment: [:])
        let request = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/1")
        let (response, _) = try await StubTransport(recorder.registry).send(request, body: nil)
        #expect(response.status == .badGateway)
        do {
            try recorder.finish()
            Issue.record("an upstream that cannot be reached must fail the recording")
        } catch {
            guard case .recordingFailed(_, let problems) = error else { throw error }
            #expect(problems.count == 1)
            #expect(problems.first?.hasPrefix("GET /users/1 did not reach \(closed.absoluteString): ") == true)
            #expect(problems.first?.contains("URLError -1004") == true)
        }
        #expect(Self.files(in: folder).isEmpty)
    }

    @Test func recordersThatAddFilesMergeAndOneThatReplacesThemIsAlone() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withMockServer(registry: try Self.upstreamStubs()) { upstream in
            let replacing = try FolderRecorder(folder: folder, upstream: upstream.baseURL, mode: .all, environment: [:])
            #expect(
                throws: DecoyError.recordingFailed(
                    folder: folder.standardizedFileURL.path,
                    problems: [
                        "another test in this process records into it: give each test a folder of its own, or serialize the tests"
                    ])
            ) { try FolderRecorder(folder: folder, upstream: upstream.baseURL, mode: .all, environment: [:]) }
            try replacing.finish()
            // Two adding recorders at once: requests of the same name get names of their own.
            let first = try FolderRecorder(folder: folder, upstream: upstream.baseURL, mode: .missing, environment: [:])
            let second = try FolderRecorder(
                folder: folder, upstream: upstream.baseURL, mode: .missing, environment: [:])
            let users = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/1")
            _ = try await StubTransport(first.registry).send(users, body: nil)
            let query = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/1?page=2")
            _ = try await StubTransport(second.registry).send(query, body: nil)
            try second.finish()
            try first.finish()
            // The replacing recorder is done: another may start.
            _ = try FolderRecorder(folder: folder, upstream: upstream.baseURL, mode: .all, environment: [:]).finish()
        }
        #expect(Self.files(in: folder).keys.sorted() == ["mappings/get-users-1-2.json", "mappings/get-users-1.json"])
        let first = String(decoding: Self.files(in: folder)["mappings/get-users-1-2.json"] ?? Data(), as: UTF8.self)
        #expect(first.contains(#""url" : "/users/1""#))
    }

    @Test(arguments: ["urlProtocol", "server"])
    func recordsAndReplaysThroughEveryServing(_ serving: String) async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let upstreamStubs = try Self.upstreamStubs()
        try await withMockServer(registry: upstreamStubs) { upstream in
            for mode in [RecordMode.missing, .none] {
                let recorder = try FolderRecorder(
                    folder: folder, upstream: upstream.baseURL, mode: mode, environment: [:])
                let seen: [String]
                if serving == "server" {
                    seen = try await withMockServer(registry: recorder.registry) { server in
                        try await Self.visit(URLSessionTransport(), at: server.baseURL)
                    }
                } else {
                    let session = URLSession.stubbed(by: recorder.registry)
                    defer { session.finishTasksAndInvalidate() }
                    seen = try await Self.visit(
                        URLSessionTransport(session: session), at: URL(string: "http://api.test")!)
                }
                try recorder.finish()
                #expect(seen.count == Self.expected.count, "\(mode)")
                #expect(seen.prefix(4) == Self.expected.prefix(4), "\(mode)")
            }
            // The second round was answered from the files alone.
            #expect(upstreamStubs.journal.totalCount == Self.visits.count)
        }
    }
}
