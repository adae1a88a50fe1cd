import Clocks
import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Loading folders: what a load reports, what it refuses while the rest serves, all or nothing
/// when strict, reloads, and the stub kinds and conditions files map onto.
@Suite("Stub files: loading")
struct StubFolderLoadingTests {
    static let good = ["ok.yaml": "request: { urlPath: /ok }\nresponse: { body: from files }\n"]
    static let broken = [
        "ok.yaml": good["ok.yaml"]!, "bad.json": #"{"request": {"urlPath": "/bad"}, "response": {"status": "x"}}"#,
    ]
    static let newFile = "request: { urlPath: /new }\nresponse: { body: new }\n"

    /// A registry with a stub registered in code, then the stubs of `folder` loaded.
    static func registryWithCodeAndFiles(from folder: borrowing ScratchFolder) throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "from code"), for: .get("/code"))
        try registry.load(folder: folder.url)
        return registry
    }

    @Test func theExampleFolderLoadsCleanly() throws {
        let report = try StubRegistry().load(folder: StubFileFixtures.examples)
        #expect(report.stubs.count == 19)
        #expect(Set(report.stubs.map(\.file)) == ["behaviours.yaml", "orders.json", "users.yaml"])
        #expect(report.stubs.allSatisfy { $0.handle != nil && $0.name != nil })
    }

    @Test func theReportHasALinePerStub() throws {
        let report = try StubRegistry().load(folder: StubFileFixtures.folder("wiremock"))
        #expect(
            report.stubs.first { $0.id != nil }?.description
                == #"""
                mappings/scenario.json:1: GET /todo/items where target equal to "/todo/items" in scenario "To do \#
                list" at "Started" "To-do list, before an item is added"
                """#
        )
        #expect(report.stubs.map(\.file).filter { $0 == "mappings/requests.json" }.count == 28)
    }

    @Test func aBrokenStubIsRefusedAndTheRestServe() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "from code"), for: .get("/code"))
        let folder = try ScratchFolder(Self.broken)
        let report = try registry.load(folder: folder.url)
        #expect(report.stubs.map(\.file) == ["ok.yaml"])
        #expect(
            report.refused.map(\.description) == [
                #"bad.json:1: refused: response.status: expected an integer 100…599, found "x""#
            ])
        #expect(report.refused.first?.route?.path == "/bad")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/ok").text == "from files")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/code").text == "from code")
    }

    @Test func aRequestOnlyARefusedStubWouldMatchIsToldWhy() async throws {
        let registry = StubRegistry()
        let folder = try ScratchFolder(Self.broken)
        try registry.load(folder: folder.url)
        for serving in ServingMode.allCases {
            let exchange = try await serving.exchange(registry, .get, "/bad")
            #expect(exchange.status == 404)
            #expect(
                exchange.text.contains(
                    #"""
                    ANY /bad: would match, but the stub at bad.json:1 was refused: response.status: expected an \#
                    integer 100…599, found "x"
                    """#
                ), "\(serving)")
        }
    }

    @Test func aStrictLoadOfABrokenFolderLoadsNothing() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "from code"), for: .get("/code"))
        let folder = try ScratchFolder(Self.broken)
        #expect(throws: DecoyError.self) { try registry.load(folder: folder.url, strict: true) }
        #expect(registry.routes.map(\.path) == ["/code"])
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/ok").status == 404)
    }

    @Test func aMissingFolderIsAnErrorEvenWhenNotStrict() {
        let missing = FileManager.default.temporaryDirectory.appending(path: "no-such-\(UUID())")
        #expect(throws: DecoyError.self) { try StubRegistry().load(folder: missing) }
    }

    @Test func reloadKeepsABrokenFilesPreviousStubsAndTakesTheRest() async throws {
        let folder = try ScratchFolder(Self.good)
        let registry = try Self.registryWithCodeAndFiles(from: folder)
        try folder.write("ok.yaml", "request: { urlPath: /ok }\nresponse: { status: nope }\n")
        try folder.write("new.yaml", Self.newFile)
        let report = try registry.reload(folder: folder.url)
        #expect(report.refused.map(\.file) == ["ok.yaml"])
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/ok").text == "from files")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/new").text == "new")
    }

    @Test func aStrictReloadOfABrokenFolderChangesNothing() async throws {
        let folder = try ScratchFolder(Self.good)
        let registry = try Self.registryWithCodeAndFiles(from: folder)
        try folder.write("bad.json", Self.broken["bad.json"]!)
        try folder.write("new.yaml", Self.newFile)
        let error = #expect(throws: DecoyError.self) { try registry.reload(folder: folder.url, strict: true) }
        #expect(error?.stubFileErrors.map(\.file) == ["bad.json"])
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/ok").text == "from files")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/new").status == 404)
    }

    @Test func reloadReplacesOnlyTheStubsFromFiles() async throws {
        let folder = try ScratchFolder(Self.good)
        let registry = try Self.registryWithCodeAndFiles(from: folder)
        try FileManager.default.removeItem(at: folder.url.appending(path: "ok.yaml"))
        try folder.write("new.yaml", Self.newFile)
        let report = try registry.reload(folder: folder.url)
        #expect(report.stubs.map(\.route.path) == ["/new"])
        #expect(Set(registry.routes.map(\.path)) == ["/code", "/new"])
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/new").text == "new")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/code").text == "from code")
    }

    @Test func reloadAfterRemoveAllLeavesLaterCodeStubsAlone() async throws {
        let folder = try ScratchFolder(Self.good)
        let registry = try Self.registryWithCodeAndFiles(from: folder)
        registry.removeAll()
        try registry.register(StubResponse(text: "registered later"), for: .get("/later"))
        try registry.reload(folder: folder.url)
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/later").text == "registered later")
        #expect(try await ServingMode.inProcess.exchange(registry, .get, "/ok").text == "from files")
    }

    @Test func responseFieldsMapOntoStubResponse() async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.folder("wiremock"))
        func answer(_ target: String) async throws -> StubResponse {
            try await registry.engine.answer(StubRequest(method: .get, target: target))
        }
        #expect(try await answer("/status").status == .init(code: 418, reasonPhrase: "Short and stout"))
        #expect(try await answer("/status").status.reasonPhrase == "Short and stout")
        #expect(try await answer("/response-headers").headerFields[values: .init("X-Multi")!] == ["1", "2"])
        #expect(try await answer("/response-headers").headerFields[.contentType] == "text/plain")
        // As WireMock, no Content-Type the stub does not set.
        #expect(try await answer("/json-body").headerFields[.contentType] == nil)
        #expect(try await answer("/file").headerFields[.contentType] == nil)
        #expect(try await answer("/base64").headerFields[.contentType] == nil)
        #expect(try await answer("/status").headerFields[.matchedStubID] != nil)
    }

    @Test func contentTypeFromTheBodyWhenAsked() async throws {
        let registry = StubRegistry()
        registry.contentTypeFromBody = true
        try registry.load(folder: StubFileFixtures.folder("wiremock"))
        func answer(_ target: String) async throws -> StubResponse {
            try await registry.engine.answer(StubRequest(method: .get, target: target))
        }
        #expect(try await answer("/response-headers").headerFields[.contentType] == "text/plain")
        #expect(try await answer("/json-body").headerFields[.contentType] == "application/json")
        #expect(try await answer("/file").headerFields[.contentType] == "text/plain; charset=utf-8")
        #expect(try await answer("/base64").headerFields[.contentType] == nil)
    }

    @Test func aDuplicateIDRefusesTheLaterStub() throws {
        let folder = try ScratchFolder([
            "a.json": #"{"id": "one", "request": {"urlPath": "/a"}, "response": {}}"#,
            "b.yaml": "uuid: one\nrequest: { urlPath: /b }\nresponse: {}\n",
        ])
        #expect(
            StubFolder(url: folder.url).check().errors.map(\.description) == [
                #"b.yaml:1: id: "one" is already the id of the stub at a.json:1"#
            ])
    }

    @Test(arguments: [
        ("/fault/empty", TransportFailure.badResponse), ("/fault/reset", .connectionLost),
        ("/fault/malformed", .badResponse), ("/fault/random", .badResponse),
    ])
    func faultsMapOntoDecoysFaults(_ target: String, _ category: TransportFailure) async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.folder("wiremock"))
        let error = await #expect(throws: APIError.self) {
            try await ServingMode.inProcess.client(registry).send(Resource<Void>.get(target))
        }
        guard case .transport(let failure, _) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))"); return
        }
        #expect(failure == category)
    }

    @Test func delaysMapOntoDecoysDelays() async throws {
        func delays(_ target: String, seed: UInt64 = 1) async throws -> [Duration] {
            let registry = StubRegistry(clock: ImmediateClock(), seed: seed)
            try registry.load(folder: StubFileFixtures.folder("wiremock"))
            var delays: [Duration] = []
            for _ in 0..<20 {
                delays.append(try await registry.engine.deliver(StubRequest(method: .get, target: target)).delay)
            }
            return delays
        }
        #expect(try await delays("/delay/fixed") == Array(repeating: .milliseconds(250), count: 20))
        #expect(
            try await delays("/delay/uniform").allSatisfy(
                (Duration.milliseconds(100)...Duration.milliseconds(200)).contains))
        let lognormal = try await delays("/delay/lognormal")
        #expect(try await delays("/delay/lognormal") == lognormal)
        #expect(Set(lognormal).count > 1 && lognormal.allSatisfy { $0 > .zero })
    }

    @Test func lognormalDelaysCentreOnTheMedian() async throws {
        let registry = StubRegistry(clock: ImmediateClock(), seed: 3)
        try registry.register(
            StubResponse(delay: .lognormal(median: .milliseconds(80), sigma: 0.5)), for: .get("/slow"))
        var samples: [Duration] = []
        for _ in 0..<2_000 {
            samples.append(try await registry.engine.deliver(StubRequest(method: .get, target: "/slow")).delay)
        }
        #expect((Duration.milliseconds(72)...Duration.milliseconds(88)).contains(samples.sorted()[1_000]))
    }

    @Test func randomFromAFileIsRandomStubWithItsSeed() async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.folder("decoy"))
        let reference = StubRegistry()
        try reference.register(
            RandomStub(["a", "b", "c"].map { StubResponse(body: Data($0.utf8)) }, seed: 42), for: .get("/random"))
        for _ in 0..<10 {
            let fromFile = try await ServingMode.inProcess.exchange(registry, .get, "/random").text
            #expect(try await ServingMode.inProcess.exchange(reference, .get, "/random").text == fromFile)
        }
    }

    @Test func throttlesMapOntoDecoysThrottles() async throws {
        let registry = StubRegistry(clock: ImmediateClock())
        try registry.load(folder: StubFileFixtures.folder("wiremock"))
        try registry.load(folder: StubFileFixtures.folder("decoy"))
        func throttle(_ target: String) async throws -> Throttle {
            try await registry.engine.answer(StubRequest(method: .get, target: target)).throttle
        }
        #expect(try await throttle("/dribble") == .chunks(count: 3, over: .milliseconds(300)))
        #expect(try await throttle("/flaky") == .bytesPerSecond(4_096))
    }

    @Test func aFailureRateFromAFileIsFailingStubWithItsSeed() async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.folder("decoy"))
        let reference = FailingStub(
            failing: 0.3, with: StubResponse(status: .serviceUnavailable, text: "flaked"),
            otherwise: StubResponse(text: "fine"), seed: 7)
        for _ in 0..<20 {
            guard case .response(let expected) = reference.resolve(for: StubRequest(method: .get, target: "/flaky"))
            else { Issue.record("the reference stub resolved to no response"); return }
            #expect(try await ServingMode.inProcess.exchange(registry, .get, "/flaky").status == expected.status.code)
        }
    }

    @Test func scenarioStateIsANearMissAndCanBeReset() async throws {
        let registry = StubRegistry()
        try registry.load(folder: StubFileFixtures.folder("wiremock"))
        try await _ = ServingMode.inProcess.exchange(
            registry, .post, "/todo/items", body: Data("Cancel newspaper subscription".utf8))
        #expect(registry.scenarioState("To do list") == "Cancel newspaper item added")
        let miss = try await ServingMode.inProcess.exchange(
            registry, .post, "/todo/items", body: Data("Cancel newspaper subscription".utf8))
        #expect(
            miss.text.contains(
                #"scenario "To do list" is in state "Cancel newspaper item added", the route expects "Started""#))
        registry.resetScenarios()
        #expect(registry.scenarioState("To do list") == Scenario.started)
        #expect(
            try await ServingMode.inProcess.exchange(registry, .get, "/todo/items").text
                == "<items><item>Buy milk</item></items>")
    }
}
