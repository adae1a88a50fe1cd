import Clocks
import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyClient

@Suite("Caching: memory, disk and hybrid caches; cache policies")
struct CachingTests {
    static func key(_ path: String, method: HTTPRequest.Method = .get) -> CacheKey {
        CacheKey(HTTPRequest(method: method, scheme: "https", authority: "api.test", path: path))
    }
    static let key = key("/people?page=1")
    static func entry(_ text: String) -> CachedResponse {
        CachedResponse(response: HTTPResponse(status: .ok), body: Data(text.utf8))
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decoy-cache-tests-\(UUID().uuidString)")
    }

    @Test func keyIsMethodAndFullURL() {
        #expect(Self.key.method == "GET")
        #expect(Self.key.url == "https://api.test/people?page=1")
        #expect(Self.key != Self.key("/people?page=1", method: .head))
    }

    @Test func memoryEntriesExpireOnTheClock() async {
        let clock = TestClock()
        let cache = MemoryCache(expiry: .seconds(60), clock: clock)
        await cache.store(Self.entry("a"), for: Self.key)
        await clock.advance(by: .seconds(59))
        #expect(await cache.response(for: Self.key)?.body == Data("a".utf8))
        await clock.advance(by: .seconds(1))
        #expect(await cache.response(for: Self.key) == nil)
    }

    @Test func memoryRemovesOneOrAll() async {
        let cache = MemoryCache(expiry: nil)
        let other = Self.key("/other")
        await cache.store(Self.entry("a"), for: Self.key)
        await cache.store(Self.entry("b"), for: other)
        await cache.removeResponse(for: Self.key)
        #expect(await cache.response(for: Self.key) == nil)
        #expect(await cache.response(for: other) != nil)
        await cache.removeAll()
        #expect(await cache.response(for: other) == nil)
    }

    @Test func diskEntriesLastAcrossInstancesAndExpireByWallClock() async {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Mutex(Date(timeIntervalSince1970: 1_000))
        let writer = DiskCache(folder: folder, expiry: .seconds(10), now: { now.withLock { $0 } })
        await writer.store(
            CachedResponse(response: HTTPResponse(status: .ok, headerFields: [.eTag: "v1"]), body: Data("a".utf8)),
            for: Self.key)
        let reader = DiskCache(folder: folder, expiry: .seconds(10), now: { now.withLock { $0 } })
        let read = await reader.response(for: Self.key)
        #expect(read?.body == Data("a".utf8))
        #expect(read?.response.headerFields[.eTag] == "v1")
        now.withLock { $0 += 10 }
        #expect(await reader.response(for: Self.key) == nil)
        await reader.removeAll()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func diskIgnoresUnreadableFiles() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = DiskCache(folder: folder)
        await cache.store(Self.entry("a"), for: Self.key)
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        try Data("not json".utf8).write(to: folder.appending(path: file))
        #expect(await cache.response(for: Self.key) == nil)
    }

    @Test func hybridReadsTheBackAndPromotesToTheFront() async {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let front = MemoryCache(expiry: nil)
        let back = DiskCache(folder: folder)
        await back.store(Self.entry("from disk"), for: Self.key)
        let hybrid = HybridCache(front: front, back: back)
        #expect(await hybrid.response(for: Self.key)?.body == Data("from disk".utf8))
        #expect(await front.response(for: Self.key)?.body == Data("from disk".utf8), "promoted")
        await hybrid.store(Self.entry("new"), for: Self.key)
        #expect(await back.response(for: Self.key)?.body == Data("new".utf8))
        await hybrid.removeResponse(for: Self.key)
        #expect(await front.response(for: Self.key) == nil)
        #expect(await back.response(for: Self.key) == nil)
    }

    /// A registry answering `/counter` with the number of requests so far, so each network answer differs.
    static func counting() throws -> StubRegistry {
        let registry = StubRegistry()
        let count = Mutex(0)
        try registry.register(
            ClosureStub { _ in
                StubResponse(json: "\(count.withLock { $0 += 1; return $0 })")
            }, for: .get("/counter"))
        try registry.register(StubResponse(status: .internalServerError), for: .get("/broken"))
        return registry
    }

    static func client(_ registry: StubRegistry, cache: any CacheStorage = MemoryCache(), policy: CachePolicy)
        -> APIClient
    {
        APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(cache: ResponseCache(storage: cache), cachePolicy: policy),
            transport: StubTransport(registry))
    }

    static let counter = Resource<Int>.get("/counter")

    @Test func cacheElseNetworkAsksTheNetworkOnceThenServesTheCache() async throws {
        let registry = try Self.counting()
        let client = Self.client(registry, policy: .cacheElseNetwork)
        let first = try await client.response(for: Self.counter)
        let second = try await client.response(for: Self.counter)
        #expect((first.value, first.source) == (1, .network))
        #expect((second.value, second.source) == (1, .cache))
        #expect(registry.journal.totalCount == 1)
    }

    @Test func responsesTakeAResourceNamedByItsStaticMember() async throws {
        let registry = try Self.counting()
        let client = Self.client(registry, policy: .cacheThenNetwork)
        _ = try await client.send(Resource<Int>.get("/counter"))
        var values: [Int] = []
        for try await delivery in client.responses(for: .counter) { values.append(delivery.value) }
        #expect(values == [1, 2], "the cached delivery, then the network's")
    }

    @Test func theClientsPolicyCachesReadsOnlyAndAResourceMayOptIn() async throws {
        let registry = StubRegistry()
        let count = Mutex(0)
        try registry.register(
            ClosureStub { _ in StubResponse(json: "\(count.withLock { $0 += 1; return $0 })") }, for: .post("/orders"))
        let client = Self.client(registry, policy: .cacheElseNetwork)
        let place = { (sku: String) in Resource<Int>.post("/orders", body: ["sku": sku]) }
        #expect(try await client.send(place("A")) == 1)
        #expect(try await client.send(place("B")) == 2, "another body is another request")
        #expect(try await client.send(place("C").cachePolicy(.cacheElseNetwork)) == 3)
        #expect(
            try await client.send(place("C").cachePolicy(.cacheElseNetwork)) == 3, "the resource asked for the cache")
    }

    @Test func aCachedAnswerThatNoLongerDecodesIsDroppedForTheNetworks() async throws {
        let registry = try Self.counting()
        let cache = MemoryCache()
        await cache.store(Self.entry(#"{"an": "old shape"}"#), for: Self.key("/counter"))
        let client = Self.client(registry, cache: cache, policy: .cacheElseNetwork)
        let failures = client.failures()
        let response = try await client.response(for: Self.counter)
        #expect((response.value, response.source) == (1, .network))
        #expect(await cache.response(for: Self.key("/counter"))?.body == Data("1".utf8))
        _ = try? await client.send(Resource<Void>.get("/broken"))
        var reported = failures.makeAsyncIterator()
        guard case .unacceptableStatus(let failure) = await reported.next()?.error else {
            Issue.record("expected the 500 of /broken"); return
        }
        #expect(failure.status == .internalServerError, "a recovered cache entry is not a failure")
    }

    @Test func cacheElseNetworkGoesBackToTheNetworkOnceExpired() async throws {
        let registry = try Self.counting()
        let clock = TestClock()
        let client = Self.client(
            registry, cache: MemoryCache(expiry: .seconds(30), clock: clock), policy: .cacheElseNetwork)
        #expect(try await client.send(Self.counter) == 1)
        await clock.advance(by: .seconds(30))
        #expect(try await client.send(Self.counter) == 2)
        #expect(try await client.send(Self.counter) == 2)
    }

    @Test func networkUpdatingCacheAlwaysAsksAndKeepsTheLatest() async throws {
        let registry = try Self.counting()
        let cache = MemoryCache()
        let client = Self.client(registry, cache: cache, policy: .networkUpdatingCache)
        #expect(try await client.send(Self.counter) == 1)
        #expect(try await client.send(Self.counter) == 2)
        #expect(await cache.response(for: Self.key("/counter"))?.body == Data("2".utf8))
    }

    @Test func networkOnlyNeitherReadsNorWrites() async throws {
        let registry = try Self.counting()
        let cache = MemoryCache()
        let client = Self.client(registry, cache: cache, policy: .networkOnly)
        #expect(try await client.send(Self.counter) == 1)
        #expect(try await client.send(Self.counter.cachePolicy(.cacheElseNetwork)) == 2, "nothing was stored")
        #expect(try await client.send(Self.counter.cachePolicy(.cacheElseNetwork)) == 2)
    }

    @Test func cacheThenNetworkDeliversTwice() async throws {
        let registry = try Self.counting()
        let client = Self.client(registry, policy: .cacheThenNetwork)
        var firstRun: [Int] = []
        for try await response in client.responses(for: Self.counter) { firstRun.append(response.value) }
        #expect(firstRun == [1], "nothing cached yet: the network only")
        var deliveries: [(Int, ResponseSource)] = []
        for try await response in client.responses(for: Self.counter) {
            deliveries.append((response.value, response.source))
        }
        #expect(deliveries.map(\.0) == [1, 2])
        #expect(deliveries.map(\.1) == [.cache, .network])
    }

    @Test func cacheThenNetworkStreamEndsWithTheNetworksError() async throws {
        let registry = try Self.counting()
        let cache = MemoryCache()
        let client = Self.client(registry, cache: cache, policy: .cacheThenNetwork)
        let broken = Resource<Int>.get("/broken")
        await cache.store(Self.entry("7"), for: Self.key("/broken"))
        var values: [Int] = []
        do {
            for try await response in client.responses(for: broken) { values.append(response.value) }
            Issue.record("expected the stream to fail")
        } catch let error as APIError {
            guard case .unacceptableStatus(let failure) = error else { Issue.record("got \(error)"); return }
            #expect(failure.status == .internalServerError)
        }
        #expect(values == [7])
    }

    @Test func resourcePolicyBeatsTheClients() async throws {
        let registry = try Self.counting()
        let client = Self.client(registry, policy: .cacheElseNetwork)
        #expect(try await client.send(Self.counter) == 1)
        #expect(try await client.send(Self.counter.cachePolicy(.networkOnly)) == 2)
        #expect(try await client.send(Self.counter) == 1, "networkOnly did not overwrite the cache")
        #expect(try await client.send(Self.counter.cachePolicy(.networkUpdatingCache)) == 3)
        #expect(try await client.send(Self.counter) == 3)
    }

    @Test func failedResponsesAreNotCached() async throws {
        let registry = try Self.counting()
        let cache = MemoryCache()
        let client = Self.client(registry, cache: cache, policy: .networkUpdatingCache)
        _ = try? await client.send(Resource<Int>.get("/broken"))
        _ = try? await client.send(Resource<Int>.get("/broken"))
        #expect(registry.journal.totalCount == 2)
        #expect(await cache.response(for: Self.key("/broken")) == nil)
    }

    @Test func streamOfAnotherPolicyDeliversOnce() async throws {
        let registry = try Self.counting()
        let client = Self.client(registry, policy: .networkUpdatingCache)
        _ = try await client.send(Self.counter)
        var values: [Int] = []
        for try await response in client.responses(for: Self.counter) { values.append(response.value) }
        #expect(values == [2])
    }
}

extension Resource where Value == Int {
    /// A resource named by a static member, as call sites write `client.responses(for: .counter)`.
    fileprivate static var counter: Resource { .get("/counter") }
}
