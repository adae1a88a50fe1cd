/// Answers with one of its stubs, picked at random from a seeded source.
///
/// Pass a seed in tests: the same seed picks the same stubs in the same order.
public struct RandomStub: Stub {
    let stubs: [any Stub]
    let random: RandomSource

    /// Creates a stub picking among `stubs`, which must not be empty.
    public init(_ stubs: [any Stub], seed: UInt64? = nil) {
        precondition(!stubs.isEmpty, "RandomStub needs at least one stub")
        self.stubs = stubs
        self.random = RandomSource(seed: seed)
    }

    /// A randomly picked stub's answer.
    public func resolve(for request: StubRequest) -> StubResolution {
        stubs[random.index(below: stubs.count)].resolve(for: request)
    }
}
