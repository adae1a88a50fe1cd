/// Identifies one registration, for removing it later.
public struct StubHandle: Sendable, Hashable {
    /// The registration's id, the same as its ``StubMapping``'s.
    public let id: String
    /// The route the stub was registered for.
    public let route: Route
    /// The registration's number within its registry: it names this registration, where the id
    /// names whatever registration has it, a replacement too.
    let number: UInt64
}
