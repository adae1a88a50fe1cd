import Decoy
import DecoyServer
import Foundation
import Testing

/// The admin calls WireMock's Java client makes beyond the basic ones, sent as it sends them.
@Suite("Admin API: WireMock client calls")
struct AdminAPIWireMockClientTests {
    private static let id = "5b1e3c9a-0000-4000-8000-000000000001"

    private func withServer(_ body: (AdminConnection, StubRegistry) async throws -> Void) async throws {
        let registry = StubRegistry()
        let server = MockServer(registry: registry)
        try server.start()
        defer { server.stop() }
        try await body(AdminConnection(server), registry)
    }

    private static func stub(_ path: String, _ text: String, id: String? = nil) -> String {
        let ids = id.map { #""id": "\#($0)", "uuid": "\#($0)", "# } ?? ""
        return #"{\#(ids)"request": {"method": "GET", "url": "\#(path)"}, "response": {"status": 200, "body": "\#(text)"}}"#
    }

    @Test func idAndUUIDAreOneAndEchoedBoth() async throws {
        try await withServer { http, registry in
            let created = try await http.admin("POST", "/mappings", Self.stub("/a", "a", id: Self.id))
            #expect(created.status == 201)
            #expect(created.json["id"] as? String == Self.id)
            #expect(created.json["uuid"] as? String == Self.id)

            let differing = #"{"id": "\#(Self.id)", "uuid": "other", "request": {"url": "/b"}, "response": {"status": 200}}"#
            let refused = try await http.admin("POST", "/mappings", differing)
            #expect(refused.status == 422)
            let error = try #require((refused.json["errors"] as? [[String: Any]])?.first)
            #expect(error["code"] as? Int == 10)
            #expect((error["source"] as? [String: Any])?["pointer"] as? String == "/uuid")
            #expect(registry.mappings.map(\.id) == [Self.id])
        }
    }

    @Test func editReplacesTheStubWithTheSameID() async throws {
        try await withServer { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.stub("/edit", "before", id: Self.id))
            #expect(try await http.admin("POST", "/mappings/edit", Self.stub("/edit", "after", id: Self.id)).status == 200)
            #expect(try await http.send("GET", "/edit").text == "after")
            #expect(registry.mappings.count == 1)

            let unknown = try await http.admin("POST", "/mappings/edit", Self.stub("/edit", "x", id: "5b1e3c9a-0000-4000-8000-00000000ffff"))
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

            #expect(try await http.admin("POST", "/mappings/remove", Self.stub("/ignored", "x", id: Self.id)).status == 200)
            #expect(try await http.send("GET", "/one").status == 404)
            #expect(try await http.admin("POST", "/mappings/remove", Self.stub("/two", "whatever")).status == 200)
            #expect(try await http.send("GET", "/two").status == 404)
            #expect(registry.mappings.map(\.route.path) == ["/three"])
        }
    }

    @Test func importAddsAllOrNothingWithWireMocksOptions() async throws {
        try await withServer { http, registry in
            _ = try await http.admin("POST", "/mappings", Self.stub("/kept", "kept", id: Self.id))
            let ignoring = #"{"mappings": [\#(Self.stub("/kept", "replaced", id: Self.id)), \#(Self.stub("/new", "new"))], "importOptions": {"duplicatePolicy": "IGNORE"}}"#
            #expect(try await http.admin("POST", "/mappings/import", ignoring).status == 200)
            #expect(try await http.send("GET", "/kept").text == "kept")
            #expect(try await http.send("GET", "/new").text == "new")

            let overwriting = #"{"mappings": [\#(Self.stub("/kept", "replaced", id: Self.id))]}"#
            #expect(try await http.admin("POST", "/mappings/import", overwriting).status == 200)
            #expect(try await http.send("GET", "/kept").text == "replaced")

            let broken = #"{"mappings": [\#(Self.stub("/more", "more")), {"request": {"url": "/bad"}, "response": {"status": 42}}]}"#
            let refused = try await http.admin("POST", "/mappings/import", broken)
            #expect(refused.status == 422)
            #expect(((refused.json["errors"] as? [[String: Any]])?.first?["source"] as? [String: Any])?["pointer"] as? String == "/mappings/1/response/status")
            #expect(try await http.send("GET", "/more").status == 404)

            let replacingAll = #"{"mappings": [\#(Self.stub("/only", "only"))], "importOptions": {"deleteAllNotInImport": true}}"#
            #expect(try await http.admin("POST", "/mappings/import", replacingAll).status == 200)
            #expect(registry.mappings.map(\.route.path) == ["/only"])
            let badOption = #"{"mappings": [], "importOptions": {"duplicatePolicy": "MERGE"}}"#
            #expect(try await http.admin("POST", "/mappings/import", badOption).errorTitle == #"expected OVERWRITE or IGNORE, found "MERGE""#)
        }
    }

    @Test func scenariosListTheirStubsAndTakeAStateByName() async throws {
        try await withServer { http, registry in
            let started = #"{"request": {"url": "/cart"}, "scenarioName": "Cart", "requiredScenarioState": "Started", "newScenarioState": "Filled", "response": {"body": "empty"}}"#
            let filled = #"{"request": {"url": "/cart"}, "scenarioName": "Cart", "requiredScenarioState": "Filled", "response": {"body": "one item"}}"#
            _ = try await http.admin("POST", "/mappings", started)
            _ = try await http.admin("POST", "/mappings", filled)

            let listed = try #require((try await http.admin("GET", "/scenarios").json["scenarios"] as? [[String: Any]])?.first)
            #expect(listed["id"] as? String == "Cart")
            let bodies = (listed["mappings"] as? [[String: Any]])?.map { ($0["response"] as? [String: Any])?["body"] as? String }
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
}
