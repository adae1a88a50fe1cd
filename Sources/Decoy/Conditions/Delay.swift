import Foundation

/// How long a stub waits before it answers.
public enum Delay: Sendable, Hashable {
    /// No delay of its own: answer at once, or after the engine's default delay when it has one.
    /// `.fixed(.zero)` answers at once whatever the default.
    case none
    /// Always wait this long.
    case fixed(Duration)
    /// Wait a duration drawn uniformly from the range, from the engine's seeded random source.
    case uniform(ClosedRange<Duration>)
    /// Wait a duration drawn from a log-normal distribution with this median and shape, like
    /// real network latency: mostly near the median, with a long tail of slow answers.
    case lognormal(median: Duration, sigma: Double)

    /// The wait for one answer.
    func sample(from random: RandomSource) -> Duration {
        switch self {
        case .none: .zero
        case .fixed(let duration): duration
        case .uniform(let range): range.lowerBound + (range.upperBound - range.lowerBound) * random.unitInterval()
        case .lognormal(let median, let sigma): median * exp(sigma * random.standardNormal())
        }
    }
}
