import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

/// The admin API, driven with plain HTTP the way WireMock's clients drive it.
@Suite("Admin API")
struct AdminAPITests {
    private static let greeting =
        #"{"request": {"method": "GET", "urlPath": "/greeting"}, "response": {"status": 200, "body": "hello"}}"#

    @Test func aMappingAddedOverHTTPIsServedListedChangedAndRemoved() async throws {
        try await AdminConnection.withServer { http, registry in
            let created = try await http.admin("POST", "/mappings", Self.greeting)
            #expect(created.status == 201)
            let id = try #require(created.json["id"] as? String)
            #expect((created.json["response"] as? [String: Any])?["body"] as? String == "hello")
            #expect(try await http.send("GET", "/greeting").text == "hello")

            let listed = try await http.admin("GET", "/mappings")
            #expect((listed.json["mappings"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect((listed.json["meta"] as? [String: Any])?["total"] as? Int == 1)
            #expect(try await http.admin("GET", "/mappings/\(id)").json["id"] as? String == id)

            let replaced = try await http.admin(
                "PUT", "/mappings/\(id)",
                #"{"request": {"urlPath": "/greeting"}, "response": {"status": 202, "body": "changed"}}"#)
            #expect(replaced.status == 200)
            #expect(replaced.json["id"] as? String == id)
            let changed = try await http.send("GET", "/greeting")
            #expect((changed.status, changed.text) == (202, "changed"))

            #expect(try await http.admin("DELETE", "/mappings/\(id)").status == 200)
            #expect(try await http.send("GET", "/greeting").status == 404)
            #expect(registry.mappings.isEmpty)
        }
    }

    @Test func theStubFilesReportListsRefusedStubsAndWarnings() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-admin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
        try Data(#"{"request": {"urlPath": "/ok"}, "response": {"status": "200"}}"#.utf8)
            .write(to: folder.appending(path: "mappings/ok.json"))
        try Data(#"{"request": {"urlPath": "/bad"}, "response": {"status": 999}}"#.utf8)
            .write(to: folder.appending(path: "mappings/bad.json"))
        try await AdminConnection.withServer { http, registry in
            #expect(try await http.admin("GET", "/stub-files").status == 404)
            try registry.load(folder: folder)
            let report = try await http.admin("GET", "/stub-files")
            #expect(report.status == 200)
            #expect(report.json["stubs"] as? Int == 1)
            let refused = try #require((report.json["refused"] as? [[String: Any]])?.first)
            #expect(refused["file"] as? String == "mappings/bad.json")
            #expect(refused["request"] as? String == "ANY /bad")
            let error = try #require((refused["errors"] as? [[String: Any]])?.first)
            #expect(error["field"] as? String == "response.status")
            let warning = try #require((report.json["warnings"] as? [[String: Any]])?.first)
            #expect(warning["file"] as? String == "mappings/ok.json")
            #expect(try await http.send("GET", "/bad").text.contains("mappings/bad.json:1 was refused"))
        }
    }

    @Test func badInputIsRefusedByNameAndChangesNothing() async throws {
        try await AdminConnection.withServer { http, registry in
            try registry.register(StubResponse(text: "kept"), for: .get("/kept"))
            let malformed = try await http.admin(
                "POST", "/mappings", #"{"request": {"urlPath": "/x"}, "response": {"status": 200"#)
            #expect(malformed.status == 422)
            #expect(malformed.errorTitle?.hasPrefix("not valid JSON") == true)

            let invalid = try await http.admin(
                "POST", "/mappings", #"{"request": {"urlPath": "/x"}, "response": {"status": "teapot"}}"#)
            #expect(invalid.status == 422)
            #expect(invalid.json["errors"].flatMap { ($0 as? [[String: Any]])?.first?["code"] as? Int } == 10)
            let error = try #require((invalid.json["errors"] as? [[String: Any]])?.first)
            #expect(error["title"] as? String == #"expected an integer 100…599, found "teapot""#)
            #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/response/status")
            #expect(
                error["detail"] as? String
                    == #"request body:1:55: response.status: expected an integer 100…599, found "teapot""#)

            let escaping = try await http.admin(
                "POST", "/mappings", #"{"response": {"bodyFileName": "../secret.txt"}}"#)
            #expect(escaping.status == 422)
            #expect(
                escaping.errorTitle
                    == #"""
                    there is no stubs folder to find "../secret.txt" in; send the body inline, or load a stubs \#
                    folder
                    """#
            )

            let unknown = try await http.admin("GET", "/mappings/no-such-id")
            #expect((unknown.status, unknown.errorTitle) == (404, #"No stub mapping has the id "no-such-id"."#))
            #expect(try await http.admin("PUT", "/mappings/no-such-id", Self.greeting).status == 404)
            #expect(try await http.admin("DELETE", "/mappings/no-such-id").status == 404)
            #expect(try await http.admin("GET", "/nothing-here").status == 404)
            #expect(try await http.admin("PATCH", "/mappings").status == 405)
            #expect(try await http.admin("GET", "/requests/nothing-here").status == 404)
            #expect(try await http.admin("GET", "/mappings?limit=many").status == 400)
            #expect(try await http.admin("GET", "/requests?limit=many").status == 400)

            #expect(registry.routes == [.get("/kept")])
            #expect(try await http.send("GET", "/kept").text == "kept")
        }
    }

    @Test func theJournalIsListedNewestFirstAndSearchedByPattern() async throws {
        try await AdminConnection.withServer { http, registry in
            try registry.register(StubResponse(text: "ok"), for: .any("/orders/{id}"))
            _ = try await http.send("GET", "/orders/1")
            _ = try await http.send("POST", "/orders/2?rush=yes", #"{"sku":"A-1"}"#)
            _ = try await http.send("GET", "/missing")
            _ = try await http.admin("GET", "/health")

            let all = try await http.admin("GET", "/requests")
            let requests = try #require(all.json["requests"] as? [[String: Any]])
            #expect(
                requests.map { ($0["request"] as? [String: Any])?["url"] as? String } == [
                    "/missing", "/orders/2?rush=yes", "/orders/1",
                ])
            #expect(requests.map { $0["wasMatched"] as? Bool } == [false, true, true])
            #expect((all.json["meta"] as? [String: Any])?["total"] as? Int == 3, "admin requests are not journaled")
            let post = try #require(requests[1]["request"] as? [String: Any])
            #expect(post["method"] as? String == "POST")
            #expect(post["body"] as? String == #"{"sku":"A-1"}"#)
            #expect(
                ((post["queryParameters"] as? [String: Any])?["rush"] as? [String: Any])?["values"] as? [String] == [
                    "yes"
                ])

            #expect((try await http.admin("GET", "/requests?limit=1").json["requests"] as? [Any])?.count == 1)
            let future = Date(timeIntervalSinceNow: 60).formatted(.iso8601)
            #expect((try await http.admin("GET", "/requests?since=\(future)").json["requests"] as? [Any])?.count == 0)

            let count = try await http.admin(
                "POST", "/requests/count",
                #"{"method": "POST", "urlPathPattern": "/orders/.*", "bodyPatterns": [{"matchesJsonPath": "$.sku"}]}"#)
            #expect(count.json["count"] as? Int == 1)
            #expect(try await http.admin("POST", "/requests/count", "{}").json["count"] as? Int == 3)
            let found = try await http.admin("POST", "/requests/find", #"{"urlPath": "/orders/1"}"#)
            #expect((found.json["requests"] as? [[String: Any]])?.map { $0["url"] as? String } == ["/orders/1"])
            let unmatched = try await http.admin("GET", "/requests/unmatched")
            #expect((unmatched.json["requests"] as? [[String: Any]])?.map { $0["url"] as? String } == ["/missing"])
            #expect(try await http.admin("POST", "/requests/count", #"{"urlPathPattern": "("}"#).status == 422)

            #expect(try await http.admin("DELETE", "/requests").status == 200)
            #expect(registry.journal.entries.isEmpty)
        }
    }

    @Test func resetBringsBackTheStubFilesAndClearsJournalAndScenarios() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"""
            [{"id": "from-file", "request": {"urlPath": "/file"}, "response": {"body": "from the file"}},
             {"request": {"urlPath": "/cart"}, "scenarioName": "cart", "newScenarioState": "filled", "response": \#
            {"body": "added"}}]
            """#.utf8
        ).write(to: folder.appending(path: "stubs.json"))
        let registry = StubRegistry()
        try registry.load(folder: folder)
        try registry.register(StubResponse(text: "from code"), for: .get("/code"))

        try await AdminConnection.withServer(registry) { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.greeting)
            _ = try await http.admin(
                "PUT", "/mappings/from-file", #"{"request": {"urlPath": "/file"}, "response": {"body": "edited"}}"#)
            #expect(try await http.send("GET", "/file").text == "edited")
            _ = try await http.send("GET", "/cart")
            let scenarios = try await http.admin("GET", "/scenarios")
            let cart = try #require((scenarios.json["scenarios"] as? [[String: Any]])?.first)
            #expect(cart["state"] as? String == "filled")
            #expect(cart["possibleStates"] as? [String] == ["Started", "filled"])

            #expect(try await http.admin("POST", "/reset").status == 200)
            #expect(try await http.send("GET", "/file").text == "from the file")
            #expect(try await http.send("GET", "/code").text == "from code")
            #expect(try await http.send("GET", "/greeting").status == 404)
            #expect(registry.scenarioState("cart") == "Started")
            #expect(registry.journal.entries.map(\.request.target) == ["/file", "/code", "/greeting"])
            #expect(registry.mappings.count == 3)

            _ = try await http.admin("DELETE", "/mappings")
            #expect(registry.routes.isEmpty)
            _ = try await http.admin("POST", "/mappings/reset")
            #expect(registry.mappings.map(\.id).contains("from-file"))
            #expect(registry.routes.count == 3)
        }
    }

    @Test func aTokenGuardsTheAdminAPI() async throws {
        try await AdminConnection.withServer(access: .token("s3cret")) { http, _ in
            let refused = try await http.admin("GET", "/health")
            #expect(refused.status == 401)
            #expect(refused.errorTitle == "The admin API needs the header Authorization: Bearer <token>.")
            let allowed = try await AdminConnection(http.server, headers: ["Authorization": "Bearer s3cret"]).admin(
                "GET", "/health")
            #expect(allowed.status == 200)
            #expect(allowed.json["status"] as? String == "healthy")
        }
    }

    @Test func withTheAdminAPIOffItsPathsAreOrdinaryRequests() async throws {
        try await AdminConnection.withServer(access: .off) { http, registry in
            #expect(try await http.admin("GET", "/health").status == 404)
            try registry.register(StubResponse(text: "a stub"), for: .get("/__admin/health"))
            #expect(try await http.admin("GET", "/health").text == "a stub")
        }
    }

    @Test func aCustomProviderHasAJournalButNoMappings() async throws {
        struct Fixed: StubProvider {
            func stub(for request: StubRequest) -> (any Stub)? {
                StubResponse(text: "fixed")
            }
        }
        let server = MockServer(provider: Fixed())
        try server.start()
        defer { server.stop() }
        let http = AdminConnection(server)
        _ = try await http.send("GET", "/anything")
        for (method, path) in [
            ("GET", "/mappings"), ("POST", "/mappings"), ("GET", "/scenarios"), ("GET", "/settings"),
            ("POST", "/reset"),
        ] {
            let refused = try await http.admin(method, path, method == "POST" ? "{}" : nil)
            #expect(refused.status == 501)
            #expect(
                refused.errorTitle?.hasPrefix(
                    """
                    Decoy cannot serve \(method) /__admin\(path) here: this server serves a custom StubProvider \
                    (Fixed)
                    """
                ) == true, "\(refused.errorTitle ?? "")")
        }
        #expect(
            try await http.admin("POST", "/requests/count", #"{"urlPath": "/anything"}"#).json["count"] as? Int == 1)
        #expect(try await http.admin("GET", "/requests").json["requests"] as? [[String: Any]] != nil)
    }

    @Test func aCustomProviderIsToldWhichCapabilityItLacks() async throws {
        struct Fixed: StubProvider {
            func stub(for request: StubRequest) -> (any Stub)? { nil }
        }
        let server = MockServer(provider: Fixed())
        try server.start()
        defer { server.stop() }
        let http = AdminConnection(server)
        _ = try await http.send("GET", "/anything")
        for (method, path, capability) in [
            ("GET", "/requests/unmatched/near-misses", "RoutedStubProvider"),
            ("POST", "/near-misses/request", "RoutedStubProvider"), ("GET", "/recordings/status", "RecordingStore"),
            ("GET", "/stub-summaries", "StubMappingStore"), ("POST", "/scenarios/reset", "ScenarioStore"),
            ("POST", "/settings/reset", "SettingsStore"),
        ] {
            let refused = try await http.admin(
                method, path, method == "POST" ? #"{"url": "/a", "method": "GET"}"# : nil)
            #expect(refused.status == 501, "\(method) \(path)")
            #expect(refused.errorTitle?.contains("(it does not conform to \(capability))") == true, "\(method) \(path)")
        }
    }

    @Test func aProviderThatFindsStubsByRouteHasNearMissesAndTLSFaultsWithoutBeingARegistry() async throws {
        /// A provider of its own over a registry's table, as one that logs or counts lookups would be.
        struct Delegating: RoutedStubProvider, TLSFaultingProvider {
            let registry: StubRegistry
            var tlsFault: TLSFault? { registry.tlsFault }
            func stub(for request: StubRequest) -> (any Stub)? { registry.stub(for: request) }
            func lookup(_ request: StubRequest) -> StubLookup { registry.lookup(request) }
        }
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "a user"), for: .get("/users/{id}"))
        registry.tlsFault = .expiredCertificate
        let provider = Delegating(registry: registry)
        let server = MockServer(provider: provider)
        try server.start()
        defer { server.stop() }
        let http = AdminConnection(server)
        #expect(try await http.send("GET", "/user/1").text.contains("/users/{id}"))
        let misses = try await http.admin("GET", "/requests/unmatched/near-misses")
        #expect(misses.status == 200)
        #expect((misses.json["nearMisses"] as? [[String: Any]])?.count == 1)

        let transport = StubTransport(provider: provider)
        await #expect(throws: URLError.self) {
            _ = try await transport.send(
                HTTPRequest(method: .get, scheme: "https", authority: "x", path: "/users/1"), body: nil)
        }
    }

    @Test func bodyFilesOfAddedStubsStayInsideTheStubsFolder() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "decoy-admin-files-\(UUID().uuidString)")
        let folder = root.appending(path: "stubs")
        try FileManager.default.createDirectory(
            at: folder.appending(path: "__files"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("top secret".utf8).write(to: root.appending(path: "secret.txt"))
        try Data(#"{"ok": true}"#.utf8).write(to: folder.appending(path: "__files/ok.json"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending(path: "__files/link.txt").path,
            withDestinationPath: root.appending(path: "secret.txt").path)
        let registry = StubRegistry()
        try registry.load(folder: folder)

        try await AdminConnection.withServer(registry) { http, registry in
            for name in ["../secret.txt", "__files/../../secret.txt", "link.txt"] {
                let refused = try await http.admin(
                    "POST", "/mappings", #"{"request": {"urlPath": "/leak"}, "response": {"bodyFileName": "\#(name)"}}"#
                )
                #expect(refused.status == 422)
                #expect(
                    refused.errorTitle == "\"\(name)\" resolves outside the stubs folder; a body file must be inside it"
                )
            }
            #expect(registry.mappings.isEmpty)
            let added = try await http.admin(
                "POST", "/mappings", #"{"request": {"urlPath": "/ok"}, "response": {"bodyFileName": "ok.json"}}"#)
            #expect(added.status == 201)
            #expect(try await http.send("GET", "/ok").text == #"{"ok": true}"#)
        }
    }

    @Test func anOpenAdminAPIIsRefusedOffLoopback() {
        let server = MockServer(registry: StubRegistry(), configuration: .init(host: "0.0.0.0"))
        #expect(throws: DecoyError.openAdminAPIOffLoopback(host: "0.0.0.0")) { try server.start() }
        #expect(!server.isRunning)
    }
}
