import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import Foundation
import Testing

/// The admin calls WireMock's Java client makes beyond the basic ones, sent as it sends them.
@Suite("Admin API: WireMock client calls")
struct AdminAPIWireMockClientTests {
    private static let id = "5b1e3c9a-0000-4000-8000-000000000001"

    private func withServer<Result>(_ body: (AdminConnection, StubRegistry) async throws -> Result) async throws
        -> Result
    {
        let registry = StubRegistry()
        return try await withMockServer(registry: registry) { server in
            try await body(AdminConnection(server), registry)
        }
    }

    private static func stub(_ path: String, _ text: String, id: String? = nil) -> String {
        let ids = id.map { #""id": "\#($0)", "uuid": "\#($0)", "# } ?? ""
        return
            #"""
            {\#(ids)"request": {"method": "GET", "url": "\#(path)"}, "response": {"status": 200, "body": \#
            "\#(text)"}}
            """#
    }

    @Test func idAndUUIDAreOneAndEchoedBoth() async throws {
        try await withServer { http, registry in
            let created = try await http.admin("POST", "/mappings", Self.stub("/a", "a", id: Self.id))
            #expect(created.status == 201)
            #expect(created.json["id"] as? String == Self.id)
            #expect(created.json["uuid"] as? String == Self.id)

            // Where they differ, the one written last is the id, as WireMock reads them.
            let differing =
                #"{"id": "\#(Self.id)", "uuid": "other", "request": {"url": "/b"}, "response": {"status": 200}}"#
            let taken = try await http.admin("POST", "/mappings", differing)
            #expect(taken.status == 201)
            #expect(taken.json["id"] as? String == "other")
            #expect(registry.mappings.map(\.id) == ["other", Self.id])
        }
    }

    @Test func editReplacesTheStubWithTheSameID() async throws {
        try await withServer { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.stub("/edit", "before", id: Self.id))
            #expect(
                try await http.admin("POST", "/mappings/edit", Self.stub("/edit", "after", id: Self.id)).status == 200)
            #expect(try await http.send("GET", "/edit").text == "after")
            #expect(registry.mappings.count == 1)

            let unknown = try await http.admin(
                "POST", "/mappings/edit", Self.stub("/edit", "x", id: "5b1e3c9a-0000-4000-8000-00000000ffff"))
            #expect(unknown.status == 404)
            let anonymous = try await http.admin("POST", "/mappings/edit", Self.stub("/edit", "x"))
            #expect(anonymous.status == 422)
            #expect(anonymous.errorTitle == "an edited stub needs the id of the stub it replaces")
            #expect(try await http.send("GET", "/edit").text == "after")
        }
    }

    @Test func removeTakesTheStubByIDOrEveryStubForTheSameRequest() async throws {
        try await withServer { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.stub("/one", "1", id: Self.id))
            _ = try await http.admin("POST", "/mappings", Self.stub("/two", "2"))
            _ = try await http.admin("POST", "/mappings", Self.stub("/two", "2 again"))
            _ = try await http.admin("POST", "/mappings", Self.stub("/three", "3"))

            #expect(
                try await http.admin("POST", "/mappings/remove", Self.stub("/ignored", "x", id: Self.id)).status == 200)
            #expect(try await http.send("GET", "/one").status == 404)
            #expect(try await http.admin("POST", "/mappings/remove", Self.stub("/two", "whatever")).status == 200)
            #expect(try await http.send("GET", "/two").status == 404)
            #expect(registry.mappings.map(\.route.path) == ["/three"])
        }
    }

    @Test func importAddsAllOrNothingWithWireMocksOptions() async throws {
        try await withServer { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.stub("/kept", "kept", id: Self.id))
            let ignoring =
                #"""
                {"mappings": [\#(Self.stub("/kept", "replaced", id: Self.id)), \#(Self.stub("/new", "new"))], \#
                "importOptions": {"duplicatePolicy": "IGNORE"}}
                """#
            #expect(try await http.admin("POST", "/mappings/import", ignoring).status == 200)
            #expect(try await http.send("GET", "/kept").text == "kept")
            #expect(try await http.send("GET", "/new").text == "new")

            let overwriting = #"{"mappings": [\#(Self.stub("/kept", "replaced", id: Self.id))]}"#
            #expect(try await http.admin("POST", "/mappings/import", overwriting).status == 200)
            #expect(try await http.send("GET", "/kept").text == "replaced")

            let broken =
                #"""
                {"mappings": [\#(Self.stub("/more", "more")), {"request": {"url": "/bad"}, "response": \#
                {"status": 42}}]}
                """#
            let refused = try await http.admin("POST", "/mappings/import", broken)
            #expect(refused.status == 422)
            #expect(
                ((refused.json["errors"] as? [[String: Any]])?.first?["source"] as? [String: Any])?["pointer"]
                    as? String == "/mappings/1/response/status")
            #expect(try await http.send("GET", "/more").status == 404)

            let replacingAll =
                #"{"mappings": [\#(Self.stub("/only", "only"))], "importOptions": {"deleteAllNotInImport": true}}"#
            #expect(try await http.admin("POST", "/mappings/import", replacingAll).status == 200)
            #expect(registry.mappings.map(\.route.path) == ["/only"])
            let badOption = #"{"mappings": [], "importOptions": {"duplicatePolicy": "MERGE"}}"#
            #expect(
                try await http.admin("POST", "/mappings/import", badOption).errorTitle
                    == #"expected OVERWRITE or IGNORE, found "MERGE""#)
        }
    }

    @Test func scenariosListTheirStubsAndTakeAStateByName() async throws {
        try await withServer { http, registry in
            let started =
                #"""
                {"request": {"url": "/cart"}, "scenarioName": "Cart", "requiredScenarioState": "Started", \#
                "newScenarioState": "Filled", "response": {"body": "empty"}}
                """#
            let filled =
                #"""
                {"request": {"url": "/cart"}, "scenarioName": "Cart", "requiredScenarioState": "Filled", \#
                "response": {"body": "one item"}}
                """#
            _ = try await http.admin("POST", "/mappings", started)
            _ = try await http.admin("POST", "/mappings", filled)

            let listed = try #require(
                (try await http.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]])?.first)
            #expect(listed["id"] as? String == "Cart")
            let bodies = (listed["mappings"] as? [[String: Any]])?.map {
                ($0["response"] as? [String: Any])?["body"] as? String
            }
            #expect(bodies == ["empty", "one item"])

            #expect(try await http.admin("PUT", "/scenarios/Cart/state", #"{"state": "Filled"}"#).status == 200)
            #expect(registry.scenarioState("Cart") == "Filled")
            #expect(try await http.send("GET", "/cart").text == "one item")
            #expect(try await http.admin("PUT", "/scenarios/Cart/state", "").status == 200)
            #expect(registry.scenarioState("Cart") == "Started")
            #expect(try await http.admin("PUT", "/scenarios/Nope/state", #"{"state": "x"}"#).status == 404)
            #expect(try await http.admin("PUT", "/scenarios/Cart/state", #"{"state": 7"#).status == 422)
        }
    }

    @Test func metadataFindsAndRemovesStubs() async throws {
        try await withServer { http, registry in
            _ = try await http.admin(
                "POST", "/mappings", #"{"request": {"url": "/a"}, "response": {}, "metadata": {"team": "checkout"}}"#)
            _ = try await http.admin(
                "POST", "/mappings", #"{"request": {"url": "/b"}, "response": {}, "metadata": {"team": "search"}}"#)
            _ = try await http.admin("POST", "/mappings", #"{"request": {"url": "/c"}, "response": {}}"#)
            let checkout = #"{"matchesJsonPath": {"expression": "$.team", "equalTo": "checkout"}}"#
            let found = try await http.admin("POST", "/mappings/find-by-metadata", checkout)
            #expect(
                (found.json["mappings"] as? [[String: Any]])?.map {
                    ($0["request"] as? [String: Any])?["url"] as? String
                } == ["/a"])
            #expect((found.json["meta"] as? [String: Any])?["total"] as? Int == 1)

            #expect(try await http.admin("POST", "/mappings/remove-by-metadata", checkout).status == 200)
            #expect(registry.mappings.map(\.route.path) == ["/c", "/b"])
            let invalid = try await http.admin("POST", "/mappings/find-by-metadata", #"{"matches": "("}"#)
            #expect(invalid.status == 422)
        }
    }

    @Test func theGlobalFixedDelayHoldsStubsWithoutADelayOfTheirOwn() async throws {
        try await withServer { http, registry in
            #expect(try await http.admin("POST", "/settings", #"{"fixedDelay": 250}"#).status == 200)
            #expect(registry.defaultDelay == .fixed(.milliseconds(250)))
            #expect(
                (try await http.admin("GET", "/settings").json["settings"] as? [String: Any])?["fixedDelay"] as? Int
                    == 250)
            #expect(try await http.admin("POST", "/settings", #"{"fixedDelay": 0}"#).status == 200)
            #expect(registry.defaultDelay == .none)

            let refused = try await http.admin("POST", "/settings", #"{"fixedDelay": 10, "proxyPassThrough": false}"#)
            #expect(refused.status == 422)
            #expect(
                refused.errorTitle == "Decoy sets only fixedDelay over the admin API; proxyPassThrough is not supported"
            )
            #expect(registry.defaultDelay == .none)
        }
    }

    @Test func basicAuthCredentialsMatchTheAuthorizationField() async throws {
        try await withServer { http, _ in
            _ = try await http.admin(
                "POST", "/mappings",
                #"""
                {"request": {"url": "/secret", "basicAuthCredentials": {"username": "ada", "password": \#
                "lovelace"}}, "response": {}}
                """#
            )
            let right = "Basic " + Data("ada:lovelace".utf8).base64EncodedString()
            #expect(
                try await AdminConnection(http.server, headers: ["Authorization": right]).send("GET", "/secret").status
                    == 200)
            let wrong = "Basic " + Data("ada:babbage".utf8).base64EncodedString()
            #expect(
                try await AdminConnection(http.server, headers: ["Authorization": wrong]).send("GET", "/secret").status
                    == 404)
            let incomplete = try await http.admin(
                "POST", "/mappings",
                #"{"request": {"url": "/x", "basicAuthCredentials": {"username": "ada"}}, "response": {}}"#)
            #expect(incomplete.errorTitle == #"basicAuthCredentials needs "password""#)
        }
    }

    @Test func serveEventsCarryTheResponseTheDelayAndTheStub() async throws {
        try await withServer { http, registry in
            _ = try await http.admin(
                "POST", "/mappings",
                #"""
                {"id": "\#(Self.id)", "request": {"urlPath": "/users/1"}, "response": {"status": 201, "body": \#
                "hi", "headers": {"X-A": "b"}, "fixedDelayMilliseconds": 20}}
                """#
            )
            _ = try await http.send("GET", "/users/1")
            _ = try await http.send("GET", "/users/2")
            let events = try #require(try await http.admin("GET", "/requests").json["requests"] as? [[String: Any]])
            #expect(events.map { $0["wasMatched"] as? Bool } == [false, true])
            let matched = events[1]
            let response = try #require(matched["response"] as? [String: Any])
            #expect(response["status"] as? Int == 201)
            #expect(response["body"] as? String == "hi")
            #expect((response["headers"] as? [String: Any])?["X-A"] as? String == "b")
            #expect((matched["timing"] as? [String: Any])?["addedDelay"] as? Int == 20)
            #expect((matched["stubMapping"] as? [String: Any])?["id"] as? String == Self.id)
            #expect((events[0]["response"] as? [String: Any])?["status"] as? Int == 404)
            #expect(events[0]["stubMapping"] == nil)

            let removed = try await http.admin("POST", "/requests/remove", #"{"urlPath": "/users/2"}"#)
            #expect((removed.json["serveEvents"] as? [[String: Any]])?.count == 1)
            #expect(registry.journal.entries.map(\.request.path) == ["/users/1"])
        }
    }

    @Test func saveWritesAddedStubsIntoTheFolderAndAResetKeepsThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = StubRegistry()
        try registry.load(folder: folder)
        try await withMockServer(registry: registry) { server in
            let http = AdminConnection(server)

            _ = try await http.admin("POST", "/mappings", Self.stub("/saved", "saved", id: Self.id))
            #expect(try await http.admin("POST", "/mappings/save").status == 200)
            #expect(
                FileManager.default.fileExists(atPath: folder.appending(path: "mappings/saved-\(Self.id).json").path))
            #expect(try await http.admin("POST", "/reset").status == 200)
            #expect(try await http.send("GET", "/saved").text == "saved")

            let unsaved = try await withServer { http, _ in try await http.admin("POST", "/mappings/save") }
            #expect(unsaved.errorTitle == "no stubs folder was loaded to save the stubs into")
        }
    }

    @Test func aServedRequestIsReadAndForgottenByIDOrByItsStubsMetadata() async throws {
        try await withServer { http, registry in
            _ = try await http.admin(
                "POST", "/mappings/new",
                #"{"request": {"url": "/tagged"}, "response": {}, "metadata": {"team": "checkout"}}"#)
            _ = try await http.send("GET", "/tagged")
            _ = try await http.send("GET", "/other")
            let events = try #require(try await http.admin("GET", "/requests").json["requests"] as? [[String: Any]])
            let id = try #require(events.last?["id"] as? String)
            #expect(
                ((try await http.admin("GET", "/requests/\(id)").json["request"]) as? [String: Any])?["url"] as? String
                    == "/tagged")
            #expect(try await http.admin("GET", "/requests/00000000-0000-4000-8000-00000000ffff").status == 404)

            let removed = try await http.admin(
                "POST", "/requests/remove-by-metadata", #"{"matchesJsonPath": "$.team"}"#)
            #expect((removed.json["serveEvents"] as? [[String: Any]])?.count == 1)
            #expect(registry.journal.entries.map(\.request.path) == ["/other"])
            let otherID = try #require(
                (try await http.admin("GET", "/requests").json["requests"] as? [[String: Any]])?.first?["id"] as? String
            )
            #expect(try await http.admin("DELETE", "/requests/\(otherID)").status == 200)
            #expect(registry.journal.entries.isEmpty)
        }
    }

    @Test(arguments: ["/shutdown", "/files"])
    func wireMocksEndpointsDecoyDoesNotServeSayWhy(endpoint: String) async throws {
        try await withServer { http, _ in
            let refused = try await http.admin("POST", endpoint)
            #expect(refused.status == 501)
            #expect(refused.errorTitle?.hasPrefix("Decoy does not serve POST /__admin\(endpoint): ") == true)
        }
    }

    @Test func nearMissesNameTheClosestRequestsAndStubs() async throws {
        try await withServer { http, _ in
            _ = try await http.admin(
                "POST", "/mappings",
                #"{"id": "\#(Self.id)", "request": {"method": "GET", "urlPath": "/users/1"}, "response": {}}"#)
            _ = try await http.send("GET", "/users/2")
            _ = try await http.send("POST", "/orders")

            let toPattern = try await http.admin(
                "POST", "/near-misses/request-pattern", #"{"method": "GET", "urlPath": "/users/3"}"#)
            let requestMisses = try #require(toPattern.json["nearMisses"] as? [[String: Any]])
            #expect(
                requestMisses.map { ($0["request"] as? [String: Any])?["url"] as? String } == ["/users/2", "/orders"])
            #expect((requestMisses.first?["requestPattern"] as? [String: Any])?["urlPath"] as? String == "/users/3")
            let distances = requestMisses.compactMap { ($0["matchResult"] as? [String: Any])?["distance"] as? Double }
            #expect(distances == distances.sorted() && distances.count == 2)

            let unmatched = try #require(
                try await http.admin("GET", "/requests/unmatched/near-misses").json["nearMisses"] as? [[String: Any]])
            #expect(unmatched.first.flatMap { ($0["request"] as? [String: Any])?["url"] as? String } == "/users/2")
            #expect(unmatched.first.flatMap { ($0["stubMapping"] as? [String: Any])?["id"] as? String } == Self.id)

            let toRequest = try await http.admin(
                "POST", "/near-misses/request",
                #"{"url": "/users/9", "method": "GET", "headers": {"Accept": "text/plain"}}"#)
            #expect(
                ((toRequest.json["nearMisses"] as? [[String: Any]])?.first?["stubMapping"] as? [String: Any])?["id"]
                    as? String == Self.id)
            #expect(try await http.admin("POST", "/near-misses/request", #"{"url": "/x"}"#).status == 422)
        }
    }
}
