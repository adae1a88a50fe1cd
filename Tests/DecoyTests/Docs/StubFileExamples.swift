// swift-format-ignore-file
// The examples of docs/stub-files.md, verbatim; DocumentationSyncTests keeps them so.
import Decoy
import DecoyClient
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Stub files, as documented")
struct StubFileExamples {
    let stubsFolder = StubFileFixtures.examples

    @Test func loadsAFolder() throws {
        let registry = StubRegistry()
        let report = try registry.load(folder: stubsFolder)
        print(report)
        // users.yaml:21: GET /users/{id} "Get a user"
        // orders.json:3: refused: response.status: expected …
        // legacy.json:1:1: comments are not JSON; read past, …
        #expect(report.stubs.count == 19)
        #expect(report.refused.isEmpty && report.warnings.isEmpty)
    }

    @Test func countsWhatAFolderServed() throws {
        let registry = StubRegistry()
        let loaded = try registry.load(folder: stubsFolder)
        #expect(loaded.stubs.count == 19)
        #expect(loaded.refused.isEmpty, "\(loaded.refused.map(\.description))")
    }

    @Test func checksAFolder() {
        let registry = StubRegistry()
        let report = registry.check(folder: stubsFolder)
        if !report.isValid {
            for error in report.errors { print(error) }   // users.yaml:12:5: response.status: expected …
        }
        #expect(report.isValid)
    }

    @Test func reportsEveryError() throws {
        let folder = try ScratchFolder(["users.yaml": "request: { urlPath: /users }\nresponse: { status: ok }\n"])
        let stubsFolder = folder.url
        let registry = StubRegistry()
        do {
            try registry.load(folder: stubsFolder, strict: true)
        } catch {
            print(error)   // The stubs folder has an error: users.yaml:2:21: response.status: …
        }
        #expect(registry.routes.isEmpty)
        #expect(StubFolder(url: stubsFolder).check().errors.map(\.field) == ["response.status"])
    }

    @Test func webhookInSwift() async throws {
        let receiver = StubRegistry()
        try receiver.register(StubResponse(status: .noContent), for: .post("/callbacks/{id}"))
        let registry = StubRegistry()
        registry.webhookTransport = StubTransport(receiver)
        let shipped = try Route.post("/orders/{id}").webhook(.post, url: "http://127.0.0.1:9000/callbacks/{{originalRequest.path.[1]}}",
                                                             body: #"{"status": "shipped"}"#, delay: .fixed(.milliseconds(100)))
        try registry.register(StubResponse(status: .accepted), for: shipped)
        #expect(try await registry.engine.answer(StubRequest(method: .post, target: "/orders/7")).status == .accepted)
        let sent = try await WebhookTests.arrivals(in: receiver.journal)
        #expect(sent.map(\.request.target) == ["/callbacks/7"])
        #expect(sent.first?.request.bodyText == #"{"status": "shipped"}"#)
        #expect(sent.first?.request.headerFields[.contentType] == "application/octet-stream")
    }

    @Test func reloads() throws {
        let registry = StubRegistry()
        try registry.load(folder: stubsFolder)
        // After the files change: a broken file's previous stubs stay.
        try registry.reload(folder: stubsFolder)
        #expect(registry.routes.count == 19)
    }

    @Test func reloadsStrictly() throws {
        let folder = try ScratchFolder(["users.yaml": "request: { urlPath: /users }\nresponse: { status: 200 }\n"])
        let stubsFolder = folder.url
        let registry = StubRegistry()
        try registry.load(folder: stubsFolder)
        try folder.write("users.yaml", "request: { urlPath: /users }\nresponse: { status: ok }\n")
        do {
            let reloaded = try registry.reload(folder: stubsFolder, strict: true)
            print("\(reloaded.stubs.count) stubs now serve")
        } catch {
            print(error)   // nothing changed: the stubs that served before still serve
        }
        #expect(registry.routes.count == 1)
    }

    @Test func matchersFromSwift() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: Route.post("/orders").body(.equalToJSON(#"{"sku": "A-1", "quantity": 2}"#, ignoreExtraElements: true)))
        try registry.register(StubResponse(json: "[]"), for: Route.post("/search").body(.matchesJSONPath("$.filters[*].field", .equalTo("status"))))
        try registry.register(StubResponse(text: "welcome back"), for: Route.get("/home").cookie("session", .present).header(.accept, .equalTo("TEXT/PLAIN", caseInsensitive: true)))
        try registry.register(StubResponse(json: "[]"), for: Route(method: .get, exactPath: "/users").target(.equalTo("/users?page=2")))
        try registry.register(StubResponse(text: "signed up"), for: Route.post("/signup").formParameter("email", .and([.contains("@"), .not(.contains("spam"))])))

        let serving = ServingMode.inProcess
        #expect(try await serving.exchange(registry, .post, "/orders", body: Data(#"{"quantity": 2, "sku": "A-1", "gift": true}"#.utf8)).status == 201)
        #expect(try await serving.exchange(registry, .post, "/search", body: Data(#"{"filters": [{"field": "status"}]}"#.utf8)).status == 200)
        #expect(try await serving.exchange(registry, .get, "/home", headerFields: [.cookie: "session=1", .accept: "text/plain"]).text == "welcome back")
        #expect(try await serving.exchange(registry, .get, "/users?page=2").status == 200)
        #expect(try await serving.exchange(registry, .get, "/users?page=3").status == 404)
        #expect(try await serving.exchange(registry, .post, "/signup", body: Data("email=ada%40example.org".utf8)).text == "signed up")
        #expect(try await serving.exchange(registry, .post, "/signup", body: Data("email=spam%40example.org".utf8)).status == 404)
    }

    @Test func scenariosFromSwift() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"items": []}"#), for: Route.get("/cart").scenario("cart", requiredState: Route.scenarioStarted))
        try registry.register(StubResponse(status: .created), for: Route.post("/cart/items").scenario("cart", newState: "filled"))
        try registry.register(StubResponse(json: #"{"items": [{"sku": "A-1"}]}"#), for: Route.get("/cart").scenario("cart", requiredState: "filled"))
        // … requests move the scenario on; a test can also set or reset it:
        registry.setScenarioState("cart", to: "filled")
        registry.resetScenarios()

        #expect(registry.scenarioState("cart") == "Started")
        _ = try await ServingMode.inProcess.exchange(registry, .post, "/cart/items")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/cart").text == #"{"items": [{"sku": "A-1"}]}"#)
    }

    @Test func invalidMatchersAreRefusedAtRegistration() {
        let error = #expect(throws: DecoyError.self) {
            try StubRegistry().register(StubResponse(), for: Route.post("/x").body(.matchesJSONPath("$.items.first()")))
        }
        #expect(error?.description == #"invalid route path "/x": body with JSON path $.items.first(): JSON path "$.items.first()": "first()" is not a function of WireMock's JSON paths (Jayway 2.7); they are length(), size(), min(), max(), avg(), sum(), stddev(), keys(), concat(), append()"#)
    }
}
