import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Journal and verification")
struct JournalTests {
    @Test(arguments: ServingMode.allCases)
    func recordsEveryRequestWithItsOutcome(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/users"))
        _ = try await serving.exchange(
            registry, .post, "/users?notify=true", headerFields: [.init("X-Trace")!: "t1"],
            body: Data(#"{"name":"Ada"}"#.utf8))
        _ = try await serving.exchange(registry, .get, "/nowhere")
        let entries = registry.journal.entries
        #expect(entries.map(\.sequence) == [1, 2])
        #expect(entries[0].request.method == .post)
        #expect(entries[0].request.target == "/users?notify=true")
        #expect(entries[0].request.headerFields[.init("X-Trace")!] == "t1")
        #expect(entries[0].request.bodyText == #"{"name":"Ada"}"#)
        #expect(entries[0].route == .post("/users"))
        #expect(entries[0].status == .created)
        #expect(entries[1].isMatched == false)
        #expect(entries[1].status == .notFound)
        #expect(
            entries[0].request.headerFields[.init("X-Decoy-Session")!] == nil,
            "the session token never reaches the journal")
    }

    @Test func verifyPassesForEachKindOfCount() async throws {
        let registry = try registryAfterTwoPosts()
        try registry.verify(.post("/users"), count: .exactly(2))
        try registry.verify(.post("/users"), count: .atLeast(2))
        try registry.verify(.post("/users"), count: .atMost(2))
        try registry.verify(.delete("/users/{id}"), count: .never)
        try registry.verify(.post("/users"))
    }

    @Test(arguments: [
        (CallCount.exactly(1), "Expected exactly 1 request matching POST /users, but received 2."),
        (.atLeast(3), "Expected at least 3 requests matching POST /users, but received 2."),
        (.atMost(1), "Expected at most 1 request matching POST /users, but received 2."),
        (.never, "Expected no requests matching POST /users, but received 2."),
    ])
    func verifyFailsWithWhatWasReceivedInstead(_ count: CallCount, _ headline: String) async throws {
        let registry = try registryAfterTwoPosts()
        let error = #expect(throws: DecoyError.self) { try registry.verify(.post("/users"), count: count) }
        #expect(
            error?.description == """
                \(headline)
                Requests received (3):
                  1. POST /users → 201
                  2. GET /users/7 → 404 (unmatched)
                  3. POST /users → 201
                """)
    }

    @Test func verifyOnAnEmptyJournalSaysNothingArrived() throws {
        let error = #expect(throws: DecoyError.self) { try StubRegistry().verify(.get("/users")) }
        #expect(
            error?.description
                == "Expected at least 1 request matching GET /users, but received 0.\nNo requests were received.")
    }

    @Test func journalIsBoundedButKeepsCounting() async throws {
        let registry = StubRegistry(journalLimit: 3)
        try registry.register(StubResponse(), for: .get("/n/{i}"))
        for index in 1...5 { _ = try await ServingMode.inProcess.exchange(registry, .get, "/n/\(index)") }
        #expect(registry.journal.totalCount == 5)
        #expect(registry.journal.entries.map(\.request.path) == ["/n/3", "/n/4", "/n/5"])
        #expect(registry.journal.entries.map(\.sequence) == [3, 4, 5])
        #expect(try registry.journal.entries(matching: .get("/n/4")).count == 1)
        registry.journal.reset()
        #expect(registry.journal.totalCount == 0)
        #expect(registry.journal.entries.isEmpty)
    }

    @Test func keepsTheNewestEntriesInOrderPastItsLimit() throws {
        let journal = RequestJournal(limit: 3)
        let engine = StubEngine(provider: StubRegistry(), journal: journal)
        let targets = (1...7).map { "/n/\($0)" }
        for target in targets { _ = engine.prepare(StubRequest(method: .get, target: target)) }
        #expect(journal.entries.map(\.request.target) == ["/n/5", "/n/6", "/n/7"])
        #expect(journal.entries.map(\.sequence) == [5, 6, 7])
        #expect(journal.totalCount == 7)

        // Removed from the middle of a journal that has wrapped around, then filled again.
        let removed = journal.remove(matching: try RequestPattern(.get("/n/6")))
        #expect(removed.map(\.request.target) == ["/n/6"])
        #expect(journal.entries.map(\.request.target) == ["/n/5", "/n/7"])
        for target in ["/n/8", "/n/9"] { _ = engine.prepare(StubRequest(method: .get, target: target)) }
        #expect(journal.entries.map(\.request.target) == ["/n/7", "/n/8", "/n/9"])
        #expect(journal.totalCount == 9)
    }

    private func registryAfterTwoPosts() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/users"))
        let engine = registry.engine
        for request in [
            StubRequest(method: .post, target: "/users"), StubRequest(method: .get, target: "/users/7"),
            StubRequest(method: .post, target: "/users"),
        ] {
            _ = engine.prepare(request)
        }
        return registry
    }
}
