import DecoyClient
import Foundation

/// A seeded random number generator shared safely between threads.
///
/// The same seed gives the same sequence, so tests that use random stubs or random delays
/// can be replayed exactly.
package final class RandomSource: Sendable {
    private let state: Mutex<SplitMix64>
    /// The seed given, `nil` when drawn from the system: what a stub sent to a server repeats.
    let seed: UInt64?

    /// Creates a source with `seed`, or with a seed drawn from the system when `nil`.
    package init(seed: UInt64? = nil) {
        self.seed = seed
        state = Mutex(SplitMix64(seed: seed ?? UInt64.random(in: .min ... .max)))
    }

    /// A random index below `count`.
    func index(below count: Int) -> Int {
        state.withLock { Int.random(in: 0..<count, using: &$0) }
    }

    /// A random byte, for servings that send noise.
    package func byte() -> UInt8 {
        state.withLock { UInt8.random(in: .min ... .max, using: &$0) }
    }

    /// A random number in `0..<1`.
    func unitInterval() -> Double {
        state.withLock { Double.random(in: 0..<1, using: &$0) }
    }

    /// A number drawn from the standard normal distribution, by the Box–Muller transform.
    func standardNormal() -> Double {
        // 1 - u keeps the logarithm's argument in (0, 1], away from log(0).
        let u = 1 - unitInterval()
        let v = unitInterval()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// Steele, Lea and Flood's SplitMix64: small, fast and good enough to pick stubs and delays.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
