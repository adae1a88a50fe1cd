import Foundation

/// How long a stub waits before it answers.
///
/// Every wait is clamped to ``maximum``: a distribution's long tail, however it is shaped, never
/// holds a connection longer, and never overflows a `Duration`.
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

    /// The longest wait of any delay, five minutes; longer draws wait this long.
    public static let maximum: Duration = .seconds(300)
    /// The largest lognormal `sigma` a stub file or `--delay` accepts. At 4, one draw in a
    /// hundred thousand is already 20,000 times the median.
    package static let maximumSigma = 4.0

    /// Why stub files and the command line refuse this delay, or `nil` when they take it: each
    /// duration at most ``maximum``, and a lognormal `sigma` from 0 to 4.
    package var problem: String? {
        let limit = "\(Self.maximum.components.seconds * 1_000) ms"
        switch self {
        case .none:
            return nil
        case .fixed(let duration):
            return duration > Self.maximum ? "a delay is at most \(limit)" : nil
        case .uniform(let range):
            return range.upperBound > Self.maximum ? "\"upper\" is at most \(limit)" : nil
        case .lognormal(let median, let sigma):
            if median > Self.maximum { return "\"median\" is at most \(limit)" }
            return (0...Self.maximumSigma).contains(sigma)
                ? nil : "\"sigma\" is a number from 0 to \(Int(Self.maximumSigma))"
        }
    }

    /// The wait for one answer, from zero to ``maximum``.
    package func sample(from random: RandomSource) -> Duration {
        switch self {
        case .none: .zero
        case .fixed(let duration): Self.clamped(duration)
        case .uniform(let range):
            Self.clamped(
                seconds: range.lowerBound.inSeconds + (range.upperBound - range.lowerBound).inSeconds
                    * random.unitInterval())
        case .lognormal(let median, let sigma):
            Self.clamped(seconds: median.inSeconds * exp(sigma * random.standardNormal()))
        }
    }

    private static func clamped(_ duration: Duration) -> Duration {
        min(max(duration, .zero), maximum)
    }

    /// Computed in `Double`, where a huge or undefined product is a value to clamp rather than
    /// the trap that `Duration` arithmetic would be.
    private static func clamped(seconds: Double) -> Duration {
        guard seconds.isFinite, seconds < maximum.inSeconds else { return seconds.isNaN ? .zero : maximum }
        return seconds > 0 ? .seconds(seconds) : .zero
    }
}

extension Duration {
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
