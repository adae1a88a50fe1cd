import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

/// Recording: what a proxy passes through becomes stub files that answer the same way.
@Suite("Recording")
struct RecordingTests {
    /// Runs `body` with a real server on loopback: users, a counter that answers differently each
    /// time, a login.
    static func withUpstream<Result>(_ body: (MockServer) async throws -> Result) async throws -> Result {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(
                headerFields: [.setCookie: "session=abc", .init("X-Upstream")!: "yes"],
                json: #"{"id":1,"name":"Ada"}"#),
            for: .get("/users/1"))
        try registry.register(
            SequenceStub(
                first: [StubResponse(text: "one"), StubResponse(text: "two")],
                then: StubResponse(status: .gone, text: "done")), for: .get("/counter"))
        try registry.register(StubResponse(text: "same"), for: .get("/same"))
        try registry.register(
            ClosureStub { request in
                // Keys sorted, as a body with a masked secret is written anew.
                StubResponse(
                    status: .created,
                    json: #"{"token":"t-123","user":"\#(request.bodyText.contains("ada") ? "ada" : "other")"}"#)
            }, for: .post("/login"))
        return try await withMockServer(registry: registry, body)
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-recording-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The requests of the round trip, and what the client saw of each: status, body, X-Upstream.
    static func visit(_ baseURL: URL) async throws -> [String] {
        let client = APIClient(baseURL: baseURL)
        var seen: [String] = []
        let resources: [Resource<Void>] = [
            .get("/users/1", query: ["page": "2"]), .get("/counter"), .get("/counter"), .get("/counter"),
            .get("/counter"), .get("/same"), .get("/same"),
            .post("/login", body: ["user": "ada", "password": "s3cret"]),
            .post("/login", body: ["user": "bob", "password": "hunter2"]),
        ]
        for resource in resources {
            let (status, fields, body): (HTTPResponse.Status, HTTPFields, Data)
            do throws(APIError) {
                let response = try await client.response(for: resource)
                (status, fields, body) = (response.status, response.headerFields, response.body)
            } catch .unacceptableStatus(let failure) {
                (status, fields, body) = (failure.status, failure.headerFields, failure.body)
            }
            seen.append(
                "\(status.code) \(fields[.init("X-Upstream")!] ?? "-") \(String(decoding: body, as: UTF8.self))")
        }
        return seen
    }

    /// Runs `body` with the upstream, a server that loaded an empty stubs folder, and its admin API.
    static func withRecordingServer(
        _ body: (_ upstream: MockServer, _ folder: URL, _ recorder: MockServer, _ admin: AdminConnection) async throws
            -> Void
    ) async throws {
        try await Self.withUpstream { upstream in
            let folder = try Self.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let registry = StubRegistry()
            try registry.load(folder: folder)
            try await withMockServer(registry: registry) { recorder in
                try await body(upstream, folder, recorder, AdminConnection(recorder))
            }
        }
    }

    @Test func recordStopLoadAndServeGiveTheSameAnswers() async throws {
        try await Self.withRecordingServer { upstream, folder, recorder, admin in
            #expect(try await admin.admin("GET", "/recordings/status").json["status"] as? String == "NeverStarted")
            let notRecording = try await admin.admin("POST", "/recordings/stop")
            #expect(notRecording.status == 400)
            #expect((notRecording.json["errors"] as? [[String: Any]])?.first?["code"] as? Int == 30)
            #expect(
                try await admin.admin(
                    "POST", "/recordings/start", #"{"targetBaseUrl": "\#(upstream.baseURL.absoluteString)"}"#
                ).status == 200)
            #expect(try await admin.admin("GET", "/recordings/status").json["status"] as? String == "Recording")

            let live = try await Self.visit(recorder.baseURL)
            #expect(
                live == [
                    #"200 yes {"id":1,"name":"Ada"}"#, "200 - one", "200 - two", "410 - done", "410 - done",
                    "200 - same", "200 - same",
                    #"201 - {"token":"t-123","user":"ada"}"#, #"201 - {"token":"t-123","user":"other"}"#,
                ])

            let stopped = try await admin.admin("POST", "/recordings/stop")
            #expect(stopped.status == 200)
            let mappings = try #require(stopped.json["mappings"] as? [[String: Any]])
            // One per distinct request, the counter's four answers as a scenario of four.
            #expect(mappings.count == 8)
            #expect(try await admin.admin("GET", "/recordings/status").json["status"] as? String == "Stopped")

            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "mappings").path)
                .sorted()
            #expect(files.count == 8)
            #expect(files.contains("get-users-1.json"))

            // Played back from the files alone, in a registry and server of their own.
            let playback = StubRegistry()
            try playback.load(folder: folder)
            try await withMockServer(registry: playback) { server in
                let replayed = try await Self.visit(server.baseURL)
                // Secrets in answers are masked; everything else is as it came.
                #expect(replayed == live.map { $0.replacingOccurrences(of: "t-123", with: "<redacted>") })
            }
        }
    }

    @Test func aSnapshotWhileRecordingWritesWhatCameSoFarAndTheStopTheRest() async throws {
        try await Self.withRecordingServer { upstream, folder, _, admin in
            #expect(
                try await admin.admin(
                    "POST", "/recordings/start",
                    #"""
                    {"targetBaseUrl": "\#(upstream.baseURL.absoluteString)", "extractBodyCriteria": \#
                    {"textSizeThreshold": "0"}}
                    """#
                ).status == 200)
            #expect(try await admin.send("GET", "/users/1").status == 200)
            let snapshot = try await admin.admin("POST", "/recordings/snapshot")
            #expect((snapshot.json["mappings"] as? [[String: Any]])?.count == 1)
            #expect(try await admin.send("GET", "/same").text == "same")
            #expect(
                (try await admin.admin("POST", "/recordings/stop").json["mappings"] as? [[String: Any]])?.count == 1)
            let written = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "mappings").path)
                .sorted()
            #expect(written == ["get-same.json", "get-users-1.json"])
            // The snapshot asked for no body files, so its body stayed in the mapping; the recording's criteria hold
            // for the rest.
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "__files").path).sorted()
                    == ["get-same.txt"])
        }
    }

    @Test func matchersAndRedaction() throws {
        let exchanges = [
            StubRecording.Proxied(
                request: StubRequest(method: .get, target: "/search?q=cats&api_key=k-1&page=1"),
                response: StubResponse(headerFields: [.setCookie: "session=abc"], json: #"{"hits": 1, "token": "t-9"}"#)
            ),
            StubRecording.Proxied(
                request: StubRequest(method: .post, target: "/notes", body: Data("plain text".utf8)),
                response: StubResponse(status: .created)),
            StubRecording.Proxied(
                request: StubRequest(
                    method: .put, target: "/me", body: Data(#"{"name": "Ada", "password": "p"}"#.utf8)),
                response: StubResponse(status: .noContent)),
        ]
        let mappings = StubRecording().mappings(from: exchanges)
        #expect(mappings.map(\.fileStem) == ["get-search", "post-notes", "put-me"])
        guard case .object(let search)? = mappings[0].document["request"],
            case .object(let answer)? = mappings[0].document["response"]
        else {
            Issue.record("no request or response")
            return
        }
        #expect(search["url"] == nil)
        #expect(search["urlPath"] == .string("/search"))
        let parameters: [String: JSONValue] = [
            "q": .object(["equalTo": .string("cats")]), "api_key": .object(["absent": .bool(false)]),
            "page": .object(["equalTo": .string("1")]),
        ]
        #expect(search["queryParameters"] == .object(parameters))
        #expect(
            answer["headers"]
                == .object(["Set-Cookie": .string("<redacted>"), "Content-Type": .string("application/json")]))
        #expect(answer["body"] == .string(#"{"hits":1,"token":"<redacted>"}"#))
        guard case .object(let note)? = mappings[1].document["request"],
            case .object(let me)? = mappings[2].document["request"]
        else { Issue.record("the second and third mappings have no request object"); return }
        #expect(note["url"] == .string("/notes"))
        #expect(note["bodyPatterns"] == .array([.object(["equalTo": .string("plain text")])]))
        let equalToJSON: [String: JSONValue] = [
            "equalToJson": .string(#"{"name":"Ada"}"#), "ignoreArrayOrder": .bool(true),
            "ignoreExtraElements": .bool(true),
        ]
        #expect(me["bodyPatterns"] == .array([.object(equalToJSON)]))
    }

    @Test func snapshotsTakeWhatProxiesPassedAndAddIt() async throws {
        try await Self.withUpstream { upstream in
            let registry = StubRegistry()
            try registry.register(ProxyStub(to: upstream.baseURL), for: Route(method: .get, path: "/**", priority: 10))
            try registry.register(StubResponse(text: "stubbed"), for: .get("/stubbed"))
            try await withMockServer(registry: registry) { server in
                let admin = AdminConnection(server)
                #expect(try await admin.send("GET", "/counter").text == "one")
                #expect(try await admin.send("GET", "/stubbed").text == "stubbed")

                let refused = try await admin.admin(
                    "POST", "/recordings/snapshot", #"{"filters": {"urlPattern": "/c.*"}}"#)
                #expect(refused.status == 422)
                #expect(refused.errorTitle?.hasPrefix("Decoy does not filter recordings") == true)
                let snapshot = try await admin.admin(
                    "POST", "/recordings/snapshot", #"{"outputFormat": "IDS", "persist": false}"#)
                let ids = try #require(snapshot.json["ids"] as? [String])
                #expect(ids.count == 1)
                // The snapshot's stub now answers ahead of the proxy, with the answer recorded.
                #expect(registry.mapping(id: ids[0]) != nil)
                #expect(try await admin.send("GET", "/counter").text == "one")
                #expect(try upstream.engine.journal.entries(matching: .get("/counter")).count == 1)
                let missing = try await admin.admin("POST", "/recordings/start", "{}")
                #expect(missing.status == 422)
                #expect(missing.errorTitle == "targetBaseUrl is required")
            }
        }
    }
}
