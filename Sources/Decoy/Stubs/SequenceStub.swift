import DecoyClient

/// Answers with a fixed series of stubs, then with one stub for ever after.
///
/// Made for retry tests: fail twice, then succeed.
///
/// ```swift
/// SequenceStub(first: [StubResponse.fault(.connectionReset), StubResponse(status: .serviceUnavailable)],
///              then: StubResponse(json: #"{"ok": true}"#))
/// ```
public final class SequenceStub: Stub {
    let first: [any Stub]
    let then: any Stub
    private let calls = Mutex(0)

    /// Creates a stub that answers with `first` in order, then with `then`.
    public init(first: [any Stub], then: any Stub) {
        self.first = first
        self.then = then
    }

    /// The answer for the current step of the sequence.
    public func resolve(for request: StubRequest) -> StubResolution {
        let call = calls.withLock { calls in
            defer { calls += 1 }
            return calls
        }
        return (call < first.count ? first[call] : then).resolve(for: request)
    }
}
