import Foundation

/// When and how often a failed exchange is tried again.
///
/// Retries wait a backoff between attempts, measured on the client's clock, and run the whole
/// pipeline again, interceptors included.
///
/// ```swift
/// RetryPolicy(
///     maxAttempts: 3, backoff: .exponential(initial: .milliseconds(200), multiplier: 2, maximum: .seconds(5)),
///     jitter: 0.2)
/// ```
public struct RetryPolicy: Sendable {
    /// How the wait grows from one attempt to the next.
    public enum Backoff: Sendable, Hashable {
        /// The same wait before every retry.
        case constant(Duration)
        /// `initial`, then times `multiplier` each retry, never more than `maximum`.
        case exponential(initial: Duration, multiplier: Double, maximum: Duration)
    }

    /// Attempts in all, the first included; 1 means no retry.
    public var maxAttempts: Int
    /// The wait between attempts.
    public var backoff: Backoff
    /// The fraction (0…1) by which each wait is randomly shortened, so that clients do not retry in step.
    public var jitter: Double
    /// Statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Transport failures that are retried.
    public var retryableFailures: Set<TransportFailure.Category>
    /// Whether requests with a method that is not idempotent (`POST`, `PATCH`) are retried too.
    public var retriesNonIdempotentMethods: Bool

    /// Creates a policy; the defaults retry twice on overload statuses and lost or failed connections.
    public init(
        maxAttempts: Int = 3,
        backoff: Backoff = .exponential(initial: .milliseconds(200), multiplier: 2, maximum: .seconds(10)),
        jitter: Double = 0.2,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure.Category> = [.connectionLost, .cannotConnect, .timedOut, .badResponse],
        retriesNonIdempotentMethods: Bool = false
    ) {
        precondition(maxAttempts >= 1, "a retry policy makes at least one attempt")
        precondition((0...1).contains(jitter), "jitter is a fraction from 0 to 1")
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
    }

    /// The wait before retry number `retry` (1 for the first retry), shortened by jitter × `unitRandom` (0..<1).
    public func wait(beforeRetry retry: Int, unitRandom: Double) -> Duration {
        let base: Duration =
            switch backoff {
            case .constant(let duration):
                duration
            case .exponential(let initial, let multiplier, let maximum):
                min(initial * pow(multiplier, Double(retry - 1)), maximum)
            }
        return base * (1 - jitter * unitRandom)
    }
}
