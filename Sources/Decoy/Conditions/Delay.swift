/// How long a stub waits before it answers.
public enum Delay: Sendable, Hashable {
    /// Answer at once.
    case none
    /// Always wait this long.
    case fixed(Duration)
    /// Wait a duration drawn uniformly from the range, from the engine's seeded random source.
    case uniform(ClosedRange<Duration>)

    /// The wait for one answer.
    func sample(from random: RandomSource) -> Duration {
        switch self {
        case .none: .zero
        case .fixed(let duration): duration
        case .uniform(let range): range.lowerBound + (range.upperBound - range.lowerBound) * random.unitInterval()
        }
    }
}
