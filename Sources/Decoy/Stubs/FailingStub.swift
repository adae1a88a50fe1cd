/// Fails a given fraction of calls, picked by a seeded random source, and answers the rest
/// normally: a flaky API for retry and resilience tests.
///
/// ```swift
/// FailingStub(
///     failing: 0.3, with: StubResponse.fault(.connectionReset), otherwise: StubResponse(json: #"{"ok": true}"#),
///     seed: 7)
/// ```
public struct FailingStub: Stub {
    let rate: Double
    let failure: any Stub
    let otherwise: any Stub
    let random: RandomSource

    /// Creates a stub that answers with `failure` on a fraction `rate` (0…1) of calls and with
    /// `otherwise` on the rest; the same seed fails the same calls.
    public init(failing rate: Double, with failure: any Stub, otherwise: any Stub, seed: UInt64? = nil) {
        precondition((0...1).contains(rate), "a failure rate is a fraction from 0 to 1")
        self.rate = rate
        self.failure = failure
        self.otherwise = otherwise
        self.random = RandomSource(seed: seed)
    }

    /// The failure's answer on a failing call, the other stub's otherwise.
    public func resolve(for request: StubRequest) -> StubResolution {
        (random.unitInterval() < rate ? failure : otherwise).resolve(for: request)
    }
}
