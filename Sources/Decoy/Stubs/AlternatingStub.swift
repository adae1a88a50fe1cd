import DecoyClient

/// Answers with each of its stubs in turn, starting again after the last.
///
/// ```swift
/// AlternatingStub([StubResponse(status: .ok), StubResponse(status: .serviceUnavailable)])
/// ```
public final class AlternatingStub: Stub {
    let stubs: [any Stub]
    private let next = Mutex(0)

    /// Creates a stub cycling through `stubs`, which must not be empty.
    public init(_ stubs: [any Stub]) {
        precondition(!stubs.isEmpty, "AlternatingStub needs at least one stub")
        self.stubs = stubs
    }

    /// The next stub's answer.
    public func resolve(for request: StubRequest) -> StubResolution {
        let index = next.withLock { next in
            defer { next = (next + 1) % stubs.count }
            return next
        }
        return stubs[index].resolve(for: request)
    }
}
