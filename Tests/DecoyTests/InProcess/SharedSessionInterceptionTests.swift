import Decoy
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The interception is global, so these tests run one at a time, and no other test in this
/// process uses `URLSession.shared`.
@Suite("URLSession.shared answered by stubs, inside a scope", .serialized)
struct SharedSessionInterceptionTests {
    /// Nothing listens on port 1 of the loopback: outside the scope the request is refused.
    static let url = URL(string: "http://127.0.0.1:1/users/42")!

    static func registry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"name": "Ada"}"#), for: .get("/users/{id}"))
        return registry
    }

    @Test func answersTheSharedSessionInsideTheScopeOnly() async throws {
        let registry = try Self.registry()
        let body = try await withSharedSessionIntercepted(by: registry) {
            let (data, response) = try await URLSession.shared.data(from: Self.url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            return String(decoding: data, as: UTF8.self)
        }
        #expect(body == #"{"name": "Ada"}"#)
        await #expect(throws: URLError.self) { _ = try await URLSession.shared.data(from: Self.url) }
        #expect(registry.journal.entries.map(\.request.target) == ["/users/42"])
    }

    @Test func undoneWhenTheBodyThrows() async throws {
        struct Failure: Error {}
        let registry = try Self.registry()
        await #expect(throws: Failure.self) {
            try await withSharedSessionIntercepted(by: registry) { throw Failure() }
        }
        await #expect(throws: URLError.self) { _ = try await URLSession.shared.data(from: Self.url) }
        #expect(registry.journal.totalCount == 0)
    }

    @Test func aSecondInterceptionIsRefusedAndTheFirstGoesOn() async throws {
        let first = try Self.registry()
        let second = try Self.registry()
        try await withSharedSessionIntercepted(by: first) {
            await #expect(throws: DecoyError.self) {
                try await withSharedSessionIntercepted(by: second) {}
            }
            _ = try await URLSession.shared.data(from: Self.url)
        }
        #expect(first.journal.totalCount == 1)
        #expect(second.journal.totalCount == 0)
    }
}
