/// How many matching requests a verification expects.
public enum CallCount: Sendable, Hashable {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)

    /// None at all.
    public static let never = CallCount.exactly(0)
    /// Exactly one.
    public static let once = CallCount.exactly(1)

    /// Whether `count` satisfies the expectation.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .atMost(let maximum): count <= maximum
        }
    }
}

extension CallCount: CustomStringConvertible {
    /// `exactly 2 requests`, and so on.
    public var description: String {
        func requests(_ n: Int) -> String { n == 1 ? "1 request" : "\(n) requests" }
        return switch self {
        case .exactly(0): "no requests"
        case .exactly(let n): "exactly \(requests(n))"
        case .atLeast(let n): "at least \(requests(n))"
        case .atMost(let n): "at most \(requests(n))"
        }
    }
}
