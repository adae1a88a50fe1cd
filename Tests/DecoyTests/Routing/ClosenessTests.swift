import Decoy
import Testing

@Suite("Closeness")
struct ClosenessTests {
    /// The route table ranks near misses from the number of their differences alone and makes the
    /// differences of the three it shows only: those three must be the ones, in the order, that
    /// ranking every candidate with its differences puts first.
    @Test(arguments: [1, 7, 42])
    func nearestByCountIsTheFrontOfTheRanking(seed: UInt64) {
        // A fixed linear congruential sequence: many ties and candidates without a difference.
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let candidates = (0..<40).map { _ in next(1_000) }
        var counts: [Int: Int] = [:]
        for candidate in candidates { counts[candidate] = next(4) }
        let count = { (candidate: Int) in counts[candidate]! }

        let expected = candidates.indices
            .filter { count(candidates[$0]) > 0 }
            .sorted { (count(candidates[$0]), $0) < (count(candidates[$1]), $1) }
            .prefix(3)
            .map { candidates[$0] }
        #expect(Closeness.nearest(candidates, limit: 3, byCount: count) == expected)
        let ranked = Closeness.ranked(candidates) { Array(repeating: 0, count: count($0)) }
        #expect(ranked.prefix(3).map(\.candidate) == expected)
    }
}
