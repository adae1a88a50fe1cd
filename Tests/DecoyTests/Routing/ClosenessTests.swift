import HTTPTypes
import Testing

@testable import Decoy

@Suite("Closeness")
struct ClosenessTests {
    /// The route table ranks near misses from their distance alone and makes the differences of
    /// the three it shows only: those three must be the ones, in the order, that ranking every
    /// candidate with its differences puts first.
    @Test(arguments: [1, 7, 42])
    func nearestByDistanceIsTheFrontOfTheRanking(seed: UInt64) throws {
        // A fixed linear congruential sequence: many ties, and candidates without a difference.
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let segments = ["users", "user", "usres", "orders", "7"]
        let methods: [HTTPRequest.Method] = [.get, .post]
        let candidates = (0..<40).map { _ in
            StubRequest(
                method: methods[next(2)],
                target: "/" + (0..<(1 + next(3))).map { _ in segments[next(segments.count)] }.joined(separator: "/"))
        }
        let pattern = try RequestPattern(.get("/users/{id}"))

        let ranked = Closeness.ranked(candidates, from: pattern) { $0 }
        let nearest = Closeness.nearest(candidates, limit: 3) { pattern.distance($0, segments: $0.pathSegments) }
        #expect(nearest.map(\.path) == ranked.prefix(3).map(\.candidate.path))
        #expect(ranked.count == candidates.filter { !pattern.matches($0) }.count)
    }

    /// Among misses with as many differences, a one-letter typo comes before another word.
    @Test func aTypoRanksBeforeAnotherSegment() throws {
        let pattern = try RequestPattern(.get("/users/{id}"))
        let requests = ["/orders/7", "/usres/7", "/user/7", "/users/7/posts"].map {
            StubRequest(method: .get, target: $0)
        }
        let ranked = Closeness.ranked(requests, from: pattern) { $0 }
        #expect(ranked.map(\.candidate.path) == ["/user/7", "/users/7/posts", "/usres/7", "/orders/7"])
    }
}
