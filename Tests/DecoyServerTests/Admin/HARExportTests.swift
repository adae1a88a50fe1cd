import Clocks
import Decoy
import DecoyClient
import DecoyServer
import DecoyStubFiles
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

/// The journal as HAR 1.2: what browsers' devtools open, and what imports back into the same stubs.
@Suite("HAR export")
struct HARExportTests {
    /// A named stub from a stub file, one from code with a delay, a binary body, a fault.
    static func registry() throws -> StubRegistry {
        let registry = StubRegistry(clock: ImmediateClock())
        try registry.addMapping(
            Data(
                #"""
                {"name": "the-user", "request": {"method": "GET", "urlPath": "/users/1"},
                 "response": {"status": 200, "jsonBody": {"id": 1, "name": "Ada"}}}
                """#.utf8))
        try registry.register(
            StubResponse(status: .created, json: #"{"id":2}"#, delay: .fixed(.milliseconds(250))), for: .post("/users"))
        try registry.register(
            StubResponse(headerFields: [.contentType: "image/png"], body: Data([0x89, 0x50, 0xFF, 0x00])),
            for: .get("/logo.png"))
        try registry.register(StubResponse.fault(.connectionReset), for: .get("/broken"))
        return registry
    }

    static let requests: [(HTTPRequest, Data?)] = [
        (HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/users/1?view=full"), nil),
        (
            HTTPRequest(
                method: .post, scheme: "http", authority: "api.test", path: "/users",
                headerFields: [.contentType: "application/json"]), Data(#"{"name":"Grace"}"#.utf8)
        ),
        (HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/logo.png"), nil),
        (HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/missing"), nil),
        (HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/broken"), nil),
    ]

    /// What each request got: status and body, or the error's type.
    static func answers(_ transport: StubTransport) async -> [String] {
        var answers: [String] = []
        for (request, body) in requests {
            do {
                let (response, data) = try await transport.send(request, body: body)
                answers.append("\(response.status.code) \(data.base64EncodedString())")
            } catch {
                answers.append("failed")
            }
        }
        return answers
    }

    @Test func theJournalIsAHARFileWithTheFieldsHAR12Requires() async throws {
        let registry = try Self.registry()
        _ = await Self.answers(StubTransport(registry))
        let har = try #require(try JSONSerialization.jsonObject(with: registry.journal.har()) as? [String: Any])
        let log = try #require(har["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "Decoy")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 5)
        for entry in entries {
            #expect(
                Set(entry.keys).isSuperset(of: ["startedDateTime", "time", "request", "response", "cache", "timings"]))
            let request = try #require(entry["request"] as? [String: Any])
            #expect(
                Set(request.keys).isSuperset(of: [
                    "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize",
                ]))
            let response = try #require(entry["response"] as? [String: Any])
            #expect(
                Set(response.keys).isSuperset(of: [
                    "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL",
                    "headersSize",
                    "bodySize",
                ]))
            let content = try #require(response["content"] as? [String: Any])
            #expect(content["size"] is NSNumber && content["mimeType"] is String)
            let timings = try #require(entry["timings"] as? [String: Any])
            #expect(["send", "wait", "receive"].allSatisfy { timings[$0] is NSNumber })
            let started = try #require(entry["startedDateTime"] as? String)
            #expect(started.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "\(started)")
        }
        #expect(
            entries.map { $0["comment"] as? String } == [
                "the-user", "matched POST /users", "matched GET /logo.png", "unmatched", "matched GET /broken",
            ])
        let first = try #require(entries.first?["request"] as? [String: Any])
        #expect(first["url"] as? String == "http://localhost/users/1?view=full")
        #expect((first["queryString"] as? [[String: String]]) == [["name": "view", "value": "full"]])
        // The delay is the wait.
        #expect((entries[1]["time"] as? NSNumber)?.doubleValue == 250)
        #expect(((entries[1]["timings"] as? [String: Any])?["wait"] as? NSNumber)?.doubleValue == 250)
        #expect(
            ((entries[1]["request"] as? [String: Any])?["postData"] as? [String: String])?["text"]
                == #"{"name":"Grace"}"#)
        let png = try #require((entries[2]["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(png["encoding"] as? String == "base64")
        #expect(png["text"] as? String == Data([0x89, 0x50, 0xFF, 0x00]).base64EncodedString())
        let broken = try #require(entries[4]["response"] as? [String: Any])
        #expect(broken["status"] as? Int == 0)
        #expect(entries[4]["_error"] as? String != nil)
    }

    @Test func importingTheHARBackGivesStubsThatAnswerTheSame() async throws {
        let registry = try Self.registry()
        let answered = await Self.answers(StubTransport(registry))
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-har-round-trip-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try HARImport().write(registry.journal.har(), named: "journal.har", to: folder)
        #expect(report.problems.isEmpty)
        #expect(report.skipped.count == 1, "the fault, which has no answer to replay")
        let imported = StubRegistry()
        try imported.load(folder: folder, strict: true)
        let replayed = await Self.answers(StubTransport(imported))
        // Everything but the fault answers the same.
        #expect(replayed.prefix(4) == answered.prefix(4))
    }

    @Test func aTargetSentUnescapedIsWrittenAsTheURIABrowserSends() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(body: Data("filtered".utf8)), for: .get("/filter"))
        let target = #"/filter?where={"name":"Ada Lovelace"}&sort=|id|&kept=caf%C3%A9&lone=%zz"#
        _ = try await StubTransport(registry).send(
            HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: target), body: nil)
        let har = try #require(try JSONSerialization.jsonObject(with: registry.journal.har()) as? [String: Any])
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let url = try #require((entries.first?["request"] as? [String: Any])?["url"] as? String)
        #expect(
            url == "http://localhost/filter?where=%7B%22name%22:%22Ada%20Lovelace%22%7D&sort=%7Cid%7C"
                + "&kept=caf%C3%A9&lone=%25zz")
        #expect(URLComponents(string: url)?.queryItems?.first?.value == #"{"name":"Ada Lovelace"}"#)
    }

    @Test func theAdminAPIAnswersTheJournalAsHAR() async throws {
        try await AdminConnection.withServer(try Self.registry()) { admin, _ in
            #expect(try await admin.send("GET", "/users/1").status == 200)
            let har = try await admin.admin("GET", "/requests/har")
            #expect(har.status == 200)
            #expect(har.headerFields[.contentType]?.hasPrefix("application/json") == true)
            let entries = try #require((har.json["log"] as? [String: Any])?["entries"] as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries.first?["comment"] as? String == "the-user")
            let url = try #require((entries.first?["request"] as? [String: Any])?["url"] as? String)
            #expect(url == "http://\(admin.server.baseURL.host!):\(admin.server.baseURL.port!)/users/1")
        }
    }
}
