import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("Request types: raw and final values, post-processing, collections of requests")
struct RequestTests {
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The JSON's own key names, decoded without a key strategy.
    struct UserRecord: Decodable, Sendable { let first_name: String; let last_name: String }
    struct User: Equatable, Sendable { let fullName: String }

    /// Remembers post-processed users, standing in for a local store.
    final class Store: Sendable {
        let saved = Mutex<[User]>([])
    }

    struct CurrentUser: Request {
        let store: Store
        var resource: Resource<UserRecord> { .get("/me") }
        func finalize(raw: UserRecord) throws -> User { User(fullName: "\(raw.first_name) \(raw.last_name)") }
        func postProcess(result: User) async -> User {
            store.saved.withLock { $0.append(result) }
            return result
        }
    }

    struct Ping: Request {
        var resource: Resource<Void> { .post("/ping") }
        func finalize(raw: Void) throws -> String { "pong" }
    }

    struct Count: Request {
        var resource: Resource<Int> { .get("/count").header(.accept, "application/json") }
    }

    struct Refuses: Request {
        struct Refusal: Error {}
        var resource: Resource<Int> { .get("/count") }
        func finalize(raw: Int) throws -> Int { throw Refusal() }
    }

    static func client() throws -> (APIClient, StubRegistry) {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"first_name": "Ada", "last_name": "Lovelace"}"#), for: .get("/me"))
        try registry.register(StubResponse(status: .noContent), for: .post("/ping"))
        try registry.register(StubResponse(json: "42"), for: .get("/count"))
        return (APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(registry)), registry)
    }

    @Test func finalizesThenPostProcesses() async throws {
        let (client, _) = try Self.client()
        let store = Store()
        #expect(try await client.send(CurrentUser(store: store)) == User(fullName: "Ada Lovelace"))
        #expect(store.saved.withLock { $0 } == [User(fullName: "Ada Lovelace")])
    }

    @Test func voidRawValueIsFinalizedToo() async throws {
        let (client, registry) = try Self.client()
        #expect(try await client.send(Ping()) == "pong")
        try registry.verify(.post("/ping"), count: .once)
    }

    @Test func rawIsFinalByDefault() async throws {
        let (client, registry) = try Self.client()
        #expect(try await client.send(Count()) == 42)
        try registry.verify(Route.get("/count").header(.accept, .equalTo("application/json")), count: .once)
    }

    @Test func finalizeFailureIsADecodingFailureWithTheBody() async throws {
        let (client, _) = try Self.client()
        let failures = client.failures()
        let error = await #expect(throws: APIError.self) { try await client.send(Refuses()) }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.underlying is Refuses.Refusal)
        #expect(failure.body == Data("42".utf8))
        var iterator = failures.makeAsyncIterator()
        guard case .decoding(let reported) = await iterator.next()?.error else {
            Issue.record("expected the failure reported like any other"); return
        }
        #expect(reported.body == failure.body)
    }

    @Test func completionHandlerVariantsFinalizeAndPostProcess() async throws {
        let (client, _) = try Self.client()
        let store = Store()
        let user = await withCheckedContinuation { continuation in
            client.send(CurrentUser(store: store)) { continuation.resume(returning: $0) }
        }
        #expect(try user.get() == User(fullName: "Ada Lovelace"))
        #expect(store.saved.withLock { $0 } == [User(fullName: "Ada Lovelace")])
        let pong = await withCheckedContinuation { continuation in
            client.send(Ping()) { continuation.resume(returning: $0) }
        }
        #expect(try pong.get() == "pong")
        let refused = await withCheckedContinuation { continuation in
            client.send(Refuses()) { continuation.resume(returning: $0) }
        }
        guard case .failure(.decoding) = refused else {
            Issue.record("expected a decoding failure, got \(refused)"); return
        }
    }

    @Test func requestsOfOneFinalTypeShareOneCollection() async throws {
        let (client, registry) = try Self.client()
        let numbers: [any Request<Int>] = [Count(), Resource<Int>.get("/count")]
        var results: [Int] = []
        for request in numbers { results.append(try await client.send(request)) }
        #expect(results == [42, 42])
        let done: [any Request<Void>] = [Resource<Void>.post("/ping"), Resource<Void>.post("/ping")]
        for request in done { try await client.send(request) }
        try registry.verify(.post("/ping"), count: .exactly(2))
        let pongs: [any Request<String>] = [Ping()]
        #expect(try await client.send(pongs[0]) == "pong")
    }
}
