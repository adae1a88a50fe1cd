import Foundation

/// When and how often a failed exchange is tried again.
///
/// Retries wait between attempts, measured on the client's clock, and run the whole pipeline
/// again, interceptors included. The first wait is `wait`; each next one is `multiplier` times
/// the last, never more than `maximumWait` (a `multiplier` of 1 waits the same each time).
///
/// ```swift
/// RetryPolicy(maxAttempts: 3, wait: .milliseconds(200), multiplier: 2, maximumWait: .seconds(5), jitter: 0.2)
/// ```
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; 1 means no retry.
    public var maxAttempts: Int
    /// The wait before the first retry.
    public var wait: Duration
    /// What each wait is multiplied by for the next retry.
    public var multiplier: Double
    /// The longest wait, however many retries came before; a longer ``wait`` is still waited in full.
    public var maximumWait: Duration
    /// The fraction (0…1) by which each wait is randomly shortened, so that clients do not retry in step.
    public var jitter: Double
    /// Statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Transport failures that are retried.
    public var retryableFailures: Set<TransportFailure>
    /// Whether requests with a method that is not idempotent (`POST`, `PATCH`) are retried too.
    public var retriesNonIdempotentMethods: Bool

    /// Creates a policy; the defaults retry twice, after 200 ms then 400 ms, on overload
    /// statuses and lost or failed connections.
    public init(
        maxAttempts: Int = 3,
        wait: Duration = .milliseconds(200),
        multiplier: Double = 2,
        maximumWait: Duration = .seconds(10),
        jitter: Double = 0.2,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableFailures: Set<TransportFailure> = [.connectionLost, .cannotConnect, .timedOut, .badResponse],
        retriesNonIdempotentMethods: Bool = false
    ) {
        precondition(maxAttempts >= 1, "a retry policy makes at least one attempt")
        precondition((0...1).contains(jitter), "jitter is a fraction from 0 to 1")
        precondition(multiplier >= 1, "a retry's wait never shrinks: the multiplier is at least 1")
        self.maxAttempts = maxAttempts
        self.wait = wait
        self.multiplier = multiplier
        self.maximumWait = maximumWait
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.retryableFailures = retryableFailures
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
    }

    /// The wait before retry number `retry` (1 for the first retry), shortened by jitter × `unitRandom` (0..<1).
    public func wait(beforeRetry retry: Int, unitRandom: Double) -> Duration {
        min(wait * pow(multiplier, Double(retry - 1)), max(maximumWait, wait)) * (1 - jitter * unitRandom)
    }
}
