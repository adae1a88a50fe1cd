import Decoy
import DecoyRemote
import Foundation
import HTTPTypes
import Testing
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RemoteDecoy` against `decoy serve` itself, as an iOS UI test drives it from the simulator.
@Suite("RemoteDecoy against decoy serve")
struct RemoteServeTests {
    @Test func registersResetsAndReadsTheJournal() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            #"{"request": {"method": "GET", "urlPath": "/health"}, "response": {"status": 200, "body": "up"}}"#.utf8
        )
        .write(to: folder.appending(path: "health.json"))
        let server = try await ServedProcess.start(arguments: [
            "serve", folder.path, "--port", "0", "--log", "none", "--admin-token", "t0ken",
        ])
        defer { server.terminate() }
        let decoy = RemoteDecoy(baseURL: URL(string: server.baseURL)!, token: "t0ken")
        let session = URLSession(configuration: .ephemeral)
        func get(_ target: String) async throws -> (Int, String) {
            let (data, response) = try await session.data(from: URL(string: server.baseURL + target)!)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        #expect(await decoy.isHealthy())
        try await decoy.register(
            AlternatingStub([StubResponse(text: "a"), StubResponse(status: .serviceUnavailable, text: "b")]),
            for: .get("/flap"))
        #expect(try await get("/flap") == (200, "a"))
        #expect(try await get("/flap") == (503, "b"))
        #expect(try await get("/flip").0 == 404)

        let journal = try await decoy.journal()
        #expect(
            journal.entries.map(\.description) == [
                "GET /flap → 200", "GET /flap → 503", "GET /flip → 404 (unmatched)",
            ])
        try journal.verify(.get("/flap"), count: .exactly(2))
        let error = #expect(throws: DecoyError.self) { try journal.verify(.get("/flap"), count: .once) }
        #expect(error?.description.hasPrefix("Expected exactly 1 request matching GET /flap, but received 2.") == true)

        try await decoy.reset()
        #expect(try await get("/flap").0 == 404)
        #expect(try await get("/health") == (200, "up"))
        await #expect(throws: DecoyError.self) {
            try await decoy.register(ClosureStub { _ in StubResponse() }, for: .get("/live"))
        }
    }
}

/// The steps of docs/testing.md's UI-test road against `decoy serve` itself, started with a
/// global delay and a stubs folder that has a scenario: what a reset brings back.
@Suite("The UI-test road against decoy serve")
struct UITestRoadTests {
    @Test func theDocumentedStepsRunAndAResetBringsBackTheServersStart() async throws {
        let folder = try CommandTests.Folder([
            "onboarding.json": #"""
            {"request": {"method": "GET", "urlPath": "/onboarding"}, "response": {"body": "welcome back"},
             "scenarioName": "onboarding", "requiredScenarioState": "done"}
            """#
        ])
        let server = try await ServedProcess.start(arguments: [
            "serve", folder.url.path, "--port", "0", "--log", "none", "--delay", "30",
        ])
        defer { server.terminate() }
        let decoy = RemoteDecoy(baseURL: URL(string: server.baseURL)!)
        let session = URLSession(configuration: .ephemeral)
        func send(_ method: String, _ target: String) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: server.baseURL + target)!)
            request.httpMethod = method
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        try await decoy.reset()
        try await decoy.register(
            StubResponse(status: .created, json: #"{"id": 7, "name": "Ada"}"#), for: .post("/users"))
        try await decoy.setScenarioState("onboarding", to: "done")
        try await decoy.setGlobalDelay(.zero)
        #expect(try await send("POST", "/users").0 == 201)
        #expect(try await send("GET", "/onboarding") == (200, "welcome back"))
        try await decoy.expect(.post("/users"), count: .once)
        try await decoy.expectNoUnmatchedRequests()

        try await decoy.reset()
        #expect(try await send("POST", "/users").0 == 404)
        #expect(try await send("GET", "/onboarding").0 == 404)
        #expect(try await send("GET", "/__admin/settings").1.contains(#""fixedDelay":30"#))
    }
}

/// The same from XCTest, as an iOS UI test target is written.
final class RemoteServeXCTests: XCTestCase {
    func testScenarioStateAndNearMisses() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-remote-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServedProcess.start(arguments: ["serve", folder.path, "--port", "0", "--log", "none"])
        defer { server.terminate() }
        let decoy = RemoteDecoy(baseURL: URL(string: server.baseURL)!)
        let session = URLSession(configuration: .ephemeral)

        try await decoy.register(
            StubResponse(text: "empty"), for: Route.get("/cart").scenario("cart", requiredState: Scenario.started))
        try await decoy.register(
            StubResponse(text: "filled"), for: Route.get("/cart").scenario("cart", requiredState: "filled"))
        try await decoy.setScenarioState("cart", to: "filled")
        let (data, _) = try await session.data(from: URL(string: server.baseURL + "/cart")!)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "filled")
        _ = try await session.data(from: URL(string: server.baseURL + "/carts")!)

        let journal = try await decoy.journal()
        XCTAssertThrowsError(try journal.verify(.post("/cart"), count: .once)) { error in
            XCTAssertEqual(
                (error as? DecoyError)?.description,
                """
                Expected exactly 1 request matching POST /cart, but received 0.
                Requests received (2):
                  1. GET /cart → 200
                  2. GET /carts → 404 (unmatched)
                """)
        }
    }
}
