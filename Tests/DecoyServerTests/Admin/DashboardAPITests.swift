import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

/// The dashboard's page and the endpoints it reads beside WireMock's.
@Suite("Dashboard API")
struct DashboardAPITests {
    @Test func thePageItsScriptAndItsStyleComeFromTheBinaryUnderAPolicyThatRunsOnlyThem() async throws {
        try await AdminConnection.withServer { http, _ in
            let page = try await http.admin("GET", "/dashboard")
            #expect(page.status == 200)
            #expect(page.headerFields[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script src="/__admin/dashboard/app.js" defer></script>"#))
            let policy = try #require(page.headerFields[HTTPField.Name("Content-Security-Policy")!])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self';"))
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "nothing fetched from elsewhere")
            let script = try await http.admin("GET", "/dashboard/app.js")
            #expect(script.headerFields[.contentType] == "text/javascript; charset=utf-8")
            #expect(!script.text.contains("innerHTML"), "values go into the page as text only")
            #expect(try await http.admin("GET", "/dashboard/app.css").status == 200)
            #expect(try await http.admin("POST", "/dashboard").status == 405)
        }
    }

    @Test func withATokenThePageLoadsButItsDataNeedsTheToken() async throws {
        try await AdminConnection.withServer(access: .token("s3cret")) { http, _ async throws in
            #expect(try await http.admin("GET", "/dashboard").status == 200)
            #expect(try await http.admin("GET", "/stub-summaries").status == 401)
            var authorized = http
            authorized.headers = ["Authorization": "Bearer s3cret"]
            #expect(try await authorized.admin("GET", "/stub-summaries").status == 200)
        }
    }

    @Test func withoutTheAdminAPIThereIsNoDashboard() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "a stub"), for: .get("/__admin/dashboard"))
        try await AdminConnection.withServer(registry, access: .off) { http, _ async throws in
            #expect(try await http.admin("GET", "/dashboard").text == "a stub")
        }
    }

    @Test func stubSummariesSayWhereEachStubCameFromAndHowManyRequestsItAnswered() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-dashboard-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
        try Data(
            """
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/a"}, "response": {"body": "a"}},
              {"name": "Bee", "priority": 3, "scenarioName": "s", "requiredScenarioState": "Started",
               "newScenarioState": "done", "request": {"method": "GET", "urlPath": "/b"}, "response": {"body": "b"}}
            ]}
            """.utf8
        ).write(to: folder.appending(path: "mappings/ab.json"))
        let registry = StubRegistry()
        try registry.load(folder: folder)
        try registry.register(StubResponse(text: "c"), for: .post("/c"))
        try await AdminConnection.withServer(registry) { http, _ in
            _ = try await http.admin(
                "POST", "/mappings", #"{"name": "Dee", "request": {"urlPath": "/d"}, "response": {"body": "d"}}"#)
            for target in ["/b", "/b", "/d", "/nowhere"] { _ = try await http.send("GET", target) }
            let all = try await http.admin("GET", "/stub-summaries")
            let stubs = try #require(all.json["stubs"] as? [[String: Any]])
            #expect((all.json["meta"] as? [String: Any])?["total"] as? Int == 4)
            let byRoute = Dictionary(uniqueKeysWithValues: stubs.map { ($0["route"] as? String ?? "", $0) })
            #expect(byRoute["GET /a"]?["origin"] as? String == "mappings/ab.json:2")
            let bee = try #require(stubs.first { $0["name"] as? String == "Bee" })
            #expect(bee["origin"] as? String == "mappings/ab.json:3")
            #expect(bee["priority"] as? Int == 3)
            #expect(bee["answered"] as? Int == 1, "the second /b found the scenario done")
            #expect(
                (bee["scenario"] as? [String: String]) == ["name": "s", "requiredState": "Started", "newState": "done"])
            #expect(byRoute["POST /c"]?["origin"] as? String == "code")
            let dee = try #require(stubs.first { $0["name"] as? String == "Dee" })
            #expect(dee["origin"] as? String == "admin API")
            #expect(dee["answered"] as? Int == 1)
            #expect(dee["method"] as? String == "ANY")

            let page = try await http.admin("GET", "/stub-summaries?offset=1&limit=2")
            #expect((page.json["stubs"] as? [[String: Any]])?.count == 2)
            let found = try await http.admin("GET", "/stub-summaries?text=AB.JSON")
            #expect((found.json["meta"] as? [String: Any])?["total"] as? Int == 2)
            let refused = try await http.admin("GET", "/stub-summaries?limit=many")
            #expect(refused.status == 400)
            #expect(refused.errorTitle == #"limit: expected a whole number, found "many"."#)
        }
    }

    @Test func theJournalPagesAndFiltersByMethodPathStatusAndUnmatched() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/users"))
        try registry.register(StubResponse(text: "one"), for: .get("/users/{id}"))
        try await AdminConnection.withServer(registry) { http, _ in
            for (method, target) in [("GET", "/users/1"), ("POST", "/users"), ("GET", "/Orders"), ("GET", "/users/2")] {
                _ = try await http.send(method, target)
            }
            func targets(_ query: String) async throws -> [String] {
                let page = try await http.admin("GET", "/requests?" + query)
                return (page.json["requests"] as? [[String: Any]] ?? []).compactMap {
                    ($0["request"] as? [String: Any])?["url"] as? String
                }
            }
            #expect(try await targets("") == ["/users/2", "/Orders", "/users", "/users/1"])
            #expect(try await targets("offset=1&limit=2") == ["/Orders", "/users"])
            #expect(try await targets("method=get&path=users") == ["/users/2", "/users/1"])
            #expect(try await targets("path=orders") == ["/Orders"])
            #expect(try await targets("status=201") == ["/users"])
            #expect(try await targets("unmatched=true") == ["/Orders"])
            #expect(try await targets("unmatched=true&status=200").isEmpty)
            let refused = try await http.admin("GET", "/requests?status=OK")
            #expect(refused.status == 400)
            #expect(refused.errorTitle == #"status: expected a status code from 100 to 599, found "OK"."#)
            #expect(
                try await http.admin("GET", "/requests?unmatched=yes").errorTitle
                    == #"unmatched: expected true or false, found "yes"."#)
            #expect(try await http.admin("GET", "/requests?method=G%20T").status == 400)
        }
    }

    @Test func anUnmatchedRequestsNearMissesAreWordedAsIts404() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "users"), for: .get("/users"))
        try await AdminConnection.withServer(registry) { http, _ in
            let missed = try await http.send("POST", "/usres")
            _ = try await http.send("GET", "/users")
            let requests = try await http.admin("GET", "/requests").json["requests"] as? [[String: Any]] ?? []
            let ids = requests.compactMap { $0["id"] as? String }
            let answer = try await http.admin("GET", "/requests/\(ids[1])/near-misses")
            #expect(answer.json["wasMatched"] as? Bool == false)
            let miss = try #require((answer.json["nearMisses"] as? [[String: Any]])?.first)
            #expect(miss["route"] as? String == "GET /users")
            let reason = try #require(miss["reason"] as? String)
            #expect(missed.text.contains(reason), "the 404 words it the same")
            #expect(miss["differences"] as? [String] == reason.components(separatedBy: "; "))
            #expect((miss["differences"] as? [String])?.count == 2, "the method and the path")

            let matched = try await http.admin("GET", "/requests/\(ids[0])/near-misses")
            #expect(matched.json["wasMatched"] as? Bool == true)
            #expect((matched.json["nearMisses"] as? [Any])?.isEmpty == true)
            #expect(try await http.admin("GET", "/requests/nope/near-misses").status == 404)
        }
    }

    @Test func theLiveFeedStreamsEachNewRequestAsAServeEventAndLetsGoWhenTheClientDoes() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "ok"), for: .get("/ok"))
        try await AdminConnection.withServer(registry) { http, _ in
            _ = try await http.send("GET", "/before")
            // The feed's head comes from the admin API's task, which a full run's busy task pool can
            // hold back for seconds: a bound far above that, reached only if the feed never answers.
            let feed = try RawConnection(port: http.server.port, receiveTimeout: .seconds(30))
            feed.send("GET /__admin/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = await feed.read(until: ": Decoy's journal, live\n\n")
            #expect(head.hasPrefix("HTTP/1.1 200"))
            #expect(head.contains("Content-Type: text/event-stream; charset=utf-8"))
            #expect(head.contains("Transfer-Encoding: chunked"), "open-ended")
            _ = try await http.send("GET", "/ok")
            _ = try await http.send("GET", "/missing")
            let events = await feed.read(until: "/missing")
            #expect(!events.contains("/before"), "only what came after")
            #expect(events.contains("event: request\ndata: {"))
            #expect(events.contains(#""url":"/ok""#) && events.contains(#""wasMatched":true"#))
            #expect(events.contains(#""wasMatched":false"#))
            feed.close()
            #expect(registry.journal.subscriberCount == 1)
            // The server notices the client gone at the next piece, and lets the subscription go.
            let deadline = ContinuousClock.now + .seconds(10)
            while registry.journal.subscriberCount > 0, ContinuousClock.now < deadline {
                _ = try await http.send("GET", "/ok")
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(registry.journal.subscriberCount == 0)
        }
    }

    @Test func theLiveFeedNeedsTheTokenWhenThereIsOne() async throws {
        try await AdminConnection.withServer(access: .token("s3cret")) { http, _ async throws in
            let refused = try await http.admin("GET", "/events")
            #expect(refused.status == 401)
        }
    }
}
