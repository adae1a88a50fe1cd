import Clocks
import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyClient

/// An origin whose answers carry caching header fields: each request to a path is counted, its
/// header fields kept, and answered by `answer` with the count as the body.
final class CachingOrigin: Sendable {
    let registry = StubRegistry()
    private let seen = Mutex<[String: [HTTPFields]]>([:])

    init(_ answer: @escaping @Sendable (_ path: String, _ request: HTTPFields, _ count: Int) -> StubResponse) throws {
        try registry.register(
            ClosureStub { [seen] request in
                let count = seen.withLock { seen in
                    seen[request.path, default: []].append(request.headerFields)
                    return seen[request.path]!.count
                }
                return answer(request.path, request.headerFields, count)
            }, for: Route(method: nil, path: "/.*", pathSyntax: .regularExpression))
    }

    /// How many requests reached `path`.
    func hits(_ path: String) -> Int { seen.withLock { $0[path]?.count ?? 0 } }
    /// The header fields of the last request to `path`.
    func lastRequest(_ path: String) -> HTTPFields? { seen.withLock { $0[path]?.last } }
}

/// `date` as an HTTP date: an IMF-fixdate, the form servers send, unless `format` names one of
/// the obsolete forms a recipient must still read.
func httpDate(_ date: Date, format: String = "EEE, dd MMM yyyy HH:mm:ss 'GMT'") -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = format
    return formatter.string(from: date)
}

@Suite("HTTP caching (RFC 9111) under the .http policy and beside the explicit ones")
struct HTTPCachingTests {
    let clock = TestClock()

    func client(_ origin: CachingOrigin, cache: (any CacheStorage)? = nil, policy: CachePolicy = .http) -> APIClient {
        APIClient(
            baseURL: URL(string: "https://api.test")!,
            configuration: .init(
                timeout: nil, clock: clock,
                cache: ResponseCache(storage: cache ?? MemoryCache(expiry: nil, clock: clock)), cachePolicy: policy),
            transport: StubTransport(origin.registry))
    }

    /// Sends GET `path` twice, `wait` apart on the test clock; the second response's body and source.
    func twice(_ path: String, after wait: Duration = .zero, _ origin: CachingOrigin, policy: CachePolicy = .http)
        async throws -> (String, ResponseSource)
    {
        let client = client(origin, policy: policy)
        _ = try await client.response(
            for: Resource<String>.get(path).decoded { data, _ in String(decoding: data, as: UTF8.self) })
        await clock.advance(by: wait)
        let second = try await client.response(
            for: Resource<String>.get(path).decoded { data, _ in String(decoding: data, as: UTF8.self) })
        return (second.value, second.source)
    }

    static func answering(_ fields: HTTPFields) throws -> CachingOrigin {
        try CachingOrigin { _, _, count in StubResponse(headerFields: fields, text: "\(count)") }
    }

    @Test func maxAgeIsServedFromTheCacheUntilItPasses() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=60"])
        let client = client(origin)
        let resource = Resource<Int>.get("/a")
        #expect(try await client.response(for: resource).source == .network)
        await clock.advance(by: .seconds(59))
        #expect(try await client.response(for: resource).source == .cache)
        await clock.advance(by: .seconds(1))
        let third = try await client.response(for: resource)
        #expect((third.value, third.source) == (2, .network))
        #expect(origin.hits("/a") == 2)
    }

    @Test func noStoreIsNeverKept() async throws {
        let cache = MemoryCache(expiry: nil, clock: clock)
        let origin = try Self.answering([.cacheControl: "no-store, max-age=60"])
        #expect(try await twice("/a", origin) == ("2", .network))
        let explicit = client(origin, cache: cache, policy: .cacheElseNetwork)
        _ = try await explicit.send(Resource<Int>.get("/a"))
        #expect(await cache.byteCount() == 0, "no explicit policy stores a no-store response either")
    }

    @Test func noCacheIsRevalidatedEveryTimeWithItsETag() async throws {
        let origin = try CachingOrigin { _, request, count in
            request[.ifNoneMatch] == "\"v1\""
                ? StubResponse(status: .notModified, headerFields: [.eTag: "\"v1\""], text: "")
                : StubResponse(
                    headerFields: [.cacheControl: "no-cache, max-age=600", .eTag: "\"v1\""], text: "\(count)")
        }
        #expect(try await twice("/a", origin) == ("1", .revalidated))
        #expect(origin.lastRequest("/a")?[.ifNoneMatch] == "\"v1\"")
        #expect(origin.hits("/a") == 2)
    }

    @Test func sMaxAgeIsForSharedCachesOnly() async throws {
        let origin = try Self.answering([.cacheControl: "s-maxage=600"])
        #expect(try await twice("/a", after: .seconds(1), origin) == ("2", .network))
    }

    @Test func expiresCountsFromTheResponsesDate() async throws {
        let date = Date()
        let origin = try Self.answering([.date: httpDate(date), .expires: httpDate(date + 100)])
        #expect(try await twice("/a", after: .seconds(90), origin) == ("1", .cache))
        let expired = try Self.answering([.date: httpDate(date), .expires: httpDate(date + 100)])
        #expect(try await twice("/a", after: .seconds(102), expired) == ("2", .network))
        let invalid = try Self.answering([.expires: "0"])
        #expect(try await twice("/a", invalid) == ("2", .network), "an invalid Expires is already past")
    }

    @Test(arguments: ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"])
    func expiresIsReadInEveryHTTPDateForm(_ format: String) async throws {
        let date = Date()
        let fields: HTTPFields = [
            .date: httpDate(date, format: format), .expires: httpDate(date + 100, format: format),
        ]
        #expect(try await twice("/a", after: .seconds(90), try Self.answering(fields)) == ("1", .cache))
        #expect(try await twice("/a", after: .seconds(102), try Self.answering(fields)) == ("2", .network))
    }

    @Test func maxAgeBeatsExpires() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=600", .expires: "0"])
        #expect(try await twice("/a", after: .seconds(100), origin) == ("1", .cache))
    }

    @Test func ageReceivedCountsAgainstFreshness() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=60", .age: "50"])
        #expect(try await twice("/a", after: .seconds(5), origin) == ("1", .cache))
        let older = try Self.answering([.cacheControl: "max-age=60", .age: "50"])
        #expect(try await twice("/a", after: .seconds(11), older) == ("2", .network))
    }

    @Test func aDateInThePastMakesTheResponseOlder() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=60", .date: httpDate(Date() - 3_600)])
        #expect(try await twice("/a", origin) == ("2", .network))
    }

    @Test func mustRevalidateOnceStaleAndAFailureIsNotAnsweredStale() async throws {
        let origin = try CachingOrigin { _, request, count in
            if count == 3 { return StubResponse(status: .serviceUnavailable, text: "") }
            return request[.ifNoneMatch] == "\"v1\""
                ? StubResponse(
                    status: .notModified, headerFields: [.cacheControl: "max-age=10, must-revalidate"], text: "")
                : StubResponse(
                    headerFields: [.cacheControl: "max-age=10, must-revalidate", .eTag: "\"v1\""], text: "\(count)")
        }
        let client = client(origin)
        let resource = Resource<Int>.get("/a")
        _ = try await client.send(resource)
        await clock.advance(by: .seconds(11))
        let revalidated = try await client.response(for: resource)
        #expect((revalidated.value, revalidated.source) == (1, .revalidated))
        #expect(try await client.response(for: resource).source == .cache, "the 304 made it fresh again")
        await clock.advance(by: .seconds(11))
        await #expect(throws: APIError.self, "stale and the origin failing: an error, not the stale entry") {
            try await client.send(resource)
        }
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModified() async throws {
        let now = Date()
        let fields: HTTPFields = [.date: httpDate(now), .lastModified: httpDate(now - 1_000)]
        #expect(try await twice("/a", after: .seconds(90), try Self.answering(fields)) == ("1", .cache))
        #expect(try await twice("/a", after: .seconds(110), try Self.answering(fields)) == ("2", .network))
    }

    @Test func noHeuristicForAStatusNotCacheableByDefault() async throws {
        let now = Date()
        let origin = try CachingOrigin { _, _, count in
            StubResponse(
                status: .created, headerFields: [.date: httpDate(now), .lastModified: httpDate(now - 1_000)],
                text: "\(count)")
        }
        #expect(try await twice("/a", origin) == ("2", .network))
    }

    @Test func nothingToGoOnMeansTheNetworkEachTime() async throws {
        #expect(try await twice("/a", try Self.answering([:])) == ("2", .network))
    }

    @Test func lastModifiedRevalidatesWithIfModifiedSince() async throws {
        let modified = httpDate(Date() - 10)
        let origin = try CachingOrigin { _, request, count in
            request[.ifModifiedSince] == modified
                ? StubResponse(
                    status: .notModified, headerFields: [.cacheControl: "max-age=0", .init("X-Fresh")!: "yes"], text: ""
                )
                : StubResponse(headerFields: [.cacheControl: "max-age=0", .lastModified: modified], text: "\(count)")
        }
        let client = client(origin)
        _ = try await client.send(Resource<Int>.get("/a"))
        let second = try await client.response(for: Resource<Int>.get("/a"))
        #expect((second.value, second.source) == (1, .revalidated))
        #expect(second.headerFields[.init("X-Fresh")!] == "yes", "the 304's fields refresh the stored ones")
        #expect(second.headerFields[.lastModified] == modified)
    }

    @Test func aChangedResourceReplacesTheStoredOne() async throws {
        let origin = try CachingOrigin { _, _, count in
            StubResponse(headerFields: [.cacheControl: "max-age=0", .eTag: "\"v\(count)\""], text: "\(count)")
        }
        let client = client(origin)
        _ = try await client.send(Resource<Int>.get("/a"))
        let second = try await client.response(for: Resource<Int>.get("/a"))
        #expect((second.value, second.source) == (2, .network))
        _ = try await client.send(Resource<Int>.get("/a"))
        #expect(origin.lastRequest("/a")?[.ifNoneMatch] == "\"v2\"")
    }

    @Test func varyKeepsAnswersApartByTheNamedFields() async throws {
        let origin = try CachingOrigin { _, request, count in
            StubResponse(
                headerFields: [.cacheControl: "max-age=600", .vary: "Accept-Language"],
                text: "\(request[.acceptLanguage] ?? "-") \(count)")
        }
        let client = client(origin)
        let inLanguage = { (language: String) in
            Resource<String>.get("/a").header(.acceptLanguage, language).decoded { data, _ in
                String(decoding: data, as: UTF8.self)
            }
        }
        #expect(try await client.send(inLanguage("en")) == "en 1")
        #expect(try await client.send(inLanguage("fr")) == "fr 2", "not the English answer")
        #expect(try await client.send(inLanguage("fr")) == "fr 2")
        #expect(origin.hits("/a") == 2)
    }

    @Test func varyStarIsNeverKept() async throws {
        #expect(
            try await twice("/a", try Self.answering([.cacheControl: "max-age=600", .vary: "*"])) == ("2", .network))
    }

    @Test func answersAreNotSharedAcrossCredentials() async throws {
        let origin = try CachingOrigin { _, request, count in
            StubResponse(
                headerFields: [.cacheControl: "max-age=600"], text: "\(request[.authorization] ?? "-") \(count)")
        }
        let client = client(origin, policy: .cacheElseNetwork)
        let asUser = { (token: String) in
            Resource<String>.get("/me").header(.authorization, token).decoded { data, _ in
                String(decoding: data, as: UTF8.self)
            }
        }
        #expect(try await client.send(asUser("Bearer ada")) == "Bearer ada 1")
        #expect(try await client.send(asUser("Bearer bob")) == "Bearer bob 2")
        #expect(try await client.send(asUser("Bearer ada")) == "Bearer ada 1")
    }

    @Test func theKeyKeepsADigestNotTheCredential() {
        let key = CacheKey(
            HTTPRequest(
                method: .get, scheme: "https", authority: "api.test", path: "/me",
                headerFields: [.authorization: "Bearer s3cr3t"]))
        #expect(key.credential != nil)
        #expect(key.credential?.contains("s3cr3t") == false)
    }

    @Test func aRequestsNoCacheRevalidatesAndItsNoStoreKeepsNothing() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=600"])
        let client = client(origin)
        _ = try await client.send(Resource<Int>.get("/a"))
        #expect(try await client.send(Resource<Int>.get("/a").header(.cacheControl, "no-cache")) == 2)
        #expect(try await client.send(Resource<Int>.get("/b").header(.cacheControl, "no-store")) == 1)
        #expect(try await client.send(Resource<Int>.get("/b")) == 2)
    }

    @Test func anUnsafeMethodInvalidatesWhatWasReadFromItsURL() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=600"])
        let client = client(origin)
        _ = try await client.send(Resource<Int>.get("/a"))
        try await client.send(Resource<Void>.post("/a"))
        #expect(try await client.send(Resource<Int>.get("/a")) == 3)
    }

    @Test func explicitPoliciesBeatFreshness() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=1"])
        #expect(try await twice("/a", after: .seconds(600), origin, policy: .cacheElseNetwork) == ("1", .cache))
        let networkFirst = try Self.answering([.cacheControl: "max-age=600"])
        #expect(try await twice("/a", networkFirst, policy: .networkUpdatingCache) == ("2", .network))
    }

    @Test func cacheThenNetworkRevalidatesItsSecondDelivery() async throws {
        let origin = try CachingOrigin { _, request, count in
            request[.ifNoneMatch] == "\"v1\""
                ? StubResponse(status: .notModified, text: "")
                : StubResponse(headerFields: [.cacheControl: "max-age=0", .eTag: "\"v1\""], text: "\(count)")
        }
        let client = client(origin, policy: .cacheThenNetwork)
        _ = try await client.send(Resource<Int>.get("/a"))
        var sources: [ResponseSource] = []
        for try await delivery in client.responses(for: Resource<Int>.get("/a")) { sources.append(delivery.source) }
        #expect(sources == [.cache, .revalidated])
    }

    @Test func aRequestsMaxAgeAsksForAFresherAnswer() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=600"])
        let client = client(origin)
        _ = try await client.send(Resource<Int>.get("/a"))
        await clock.advance(by: .seconds(60))
        let lenient = try await client.response(for: Resource<Int>.get("/a").header(.cacheControl, "max-age=120"))
        #expect((lenient.value, lenient.source) == (1, .cache))
        let fresher = try await client.response(for: Resource<Int>.get("/a").header(.cacheControl, "max-age=30"))
        #expect((fresher.value, fresher.source) == (2, .network), "a 60-second-old answer is older than 30 seconds")
        #expect(origin.hits("/a") == 2)
    }

    @Test func theMemoryCachesDefaultExpiryDoesNotUndercutMaxAge() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=3600"])
        let client = client(origin, cache: ResponseCache.memory(clock: clock).storage)
        _ = try await client.send(Resource<Int>.get("/a"))
        await clock.advance(by: .seconds(10 * 60))
        #expect(try await client.response(for: Resource<Int>.get("/a")).source == .cache)
        await clock.advance(by: .seconds(50 * 60))
        let stale = try await client.response(for: Resource<Int>.get("/a"))
        #expect((stale.value, stale.source) == (2, .network))
    }

    @Test func anExpirySetByTheUserBeatsMaxAge() async throws {
        let origin = try Self.answering([.cacheControl: "max-age=3600"])
        let client = client(origin, cache: ResponseCache.memory(expiry: .seconds(60), clock: clock).storage)
        _ = try await client.send(Resource<Int>.get("/a"))
        await clock.advance(by: .seconds(61))
        #expect(try await client.response(for: Resource<Int>.get("/a")).source == .network)
    }

    @Test func theDefaultExpiryStillBoundsAnExplicitPolicy() async throws {
        let origin = try Self.answering([:])
        let client = client(origin, cache: ResponseCache.memory(clock: clock).storage, policy: .cacheElseNetwork)
        _ = try await client.send(Resource<Int>.get("/a"))
        await clock.advance(by: .seconds(299))
        #expect(try await client.response(for: Resource<Int>.get("/a")).source == .cache)
        await clock.advance(by: .seconds(2))
        #expect(try await client.response(for: Resource<Int>.get("/a")).source == .network)
    }

    @Test func theDefaultPolicyIsHTTPs() {
        #expect(APIClient.Configuration().cachePolicy == .http)
    }
}

@Suite("Bounded caches: bytes, least recently used first out")
struct BoundedCacheTests {
    static func key(_ index: Int) -> CacheKey {
        CacheKey(HTTPRequest(method: .get, scheme: "https", authority: "api.test", path: "/items/\(index)"))
    }

    static func entry(bytes: Int) -> CachedResponse {
        CachedResponse(response: HTTPResponse(status: .ok), body: Data(repeating: 7, count: bytes))
    }

    @Test func aMemoryCacheUnderA128MiBLoadStaysWithinItsBound() async {
        let mebibyte = 1024 * 1024
        let cache = MemoryCache(expiry: nil, capacity: 8 * mebibyte)
        for index in 0..<128 {
            await cache.store(Self.entry(bytes: mebibyte), for: Self.key(index))
            #expect(await cache.byteCount() <= 8 * mebibyte)
        }
        #expect(await cache.byteCount() > 7 * mebibyte, "the bound is used, not just kept")
        #expect(await cache.response(for: Self.key(127)) != nil)
        #expect(await cache.response(for: Self.key(0)) == nil)
    }

    @Test func manySmallEntriesStayWithinTheBound() async {
        let cache = MemoryCache(expiry: nil, capacity: 100_000)
        for index in 0..<10_000 { await cache.store(Self.entry(bytes: 100), for: Self.key(index)) }
        #expect(await cache.byteCount() <= 100_000)
        #expect(await cache.byteCount() >= 100_000 - 104)
    }

    @Test func aReadMakesAnEntryTheLastToGo() async {
        let cache = MemoryCache(expiry: nil, capacity: 300)
        for index in 0..<3 { await cache.store(Self.entry(bytes: 100), for: Self.key(index)) }
        _ = await cache.response(for: Self.key(0))
        await cache.store(Self.entry(bytes: 100), for: Self.key(3))
        #expect(await cache.response(for: Self.key(0)) != nil)
        #expect(await cache.response(for: Self.key(1)) == nil, "the least recently used went first")
        #expect(await cache.response(for: Self.key(2)) != nil)
    }

    @Test func anEntryLargerThanTheWholeCacheIsNotKept() async {
        let cache = MemoryCache(expiry: nil, capacity: 50)
        await cache.store(Self.entry(bytes: 10), for: Self.key(0))
        await cache.store(Self.entry(bytes: 100), for: Self.key(1))
        #expect(await cache.response(for: Self.key(1)) == nil)
        #expect(await cache.response(for: Self.key(0)) != nil, "nothing was evicted for it")
    }

    @Test func aDiskCacheDeletesTheLeastRecentlyUsedFilesBeyondItsBound() async {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-bounded-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let now = Mutex(Date(timeIntervalSince1970: 1_000_000))
        let tick: @Sendable () -> Date = {
            now.withLock {
                $0 += 10; return $0
            }
        }
        let probe = DiskCache(folder: folder.appending(path: "probe"), now: tick)
        await probe.store(Self.entry(bytes: 1_000), for: Self.key(0))
        let fileSize = await probe.byteCount()
        let cache = DiskCache(
            folder: folder.appending(path: "bounded"), capacity: 3 * fileSize + fileSize / 2, now: tick)
        for index in 0..<3 { await cache.store(Self.entry(bytes: 1_000), for: Self.key(index)) }
        _ = await cache.response(for: Self.key(0))
        await cache.store(Self.entry(bytes: 1_000), for: Self.key(3))
        #expect(await cache.byteCount() <= cache.capacity)
        #expect(await cache.response(for: Self.key(0)) != nil)
        #expect(await cache.response(for: Self.key(1)) == nil, "the least recently used file went first")
        #expect(await cache.response(for: Self.key(2)) != nil)
        #expect(await cache.response(for: Self.key(3)) != nil)
    }
}
