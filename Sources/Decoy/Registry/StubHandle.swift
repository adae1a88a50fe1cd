/// Identifies one registration, for removing it later.
public struct StubHandle: Sendable, Hashable {
    /// The registration's number within its registry.
    public let id: UInt64
    /// The route the stub was registered for.
    public let route: Route
}
