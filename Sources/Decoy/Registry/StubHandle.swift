/// Names one registration: what removes it, and what a mapping compares by.
package struct StubHandle: Sendable, Hashable {
    /// The registration's id, the same as its ``StubMapping``'s.
    package let id: String
    /// The route the stub was registered for.
    package let route: Route
    /// The registration's number within its registry: it names this registration, where the id
    /// names whatever registration has it, a replacement too; 0 for one on a server in another process.
    package let number: UInt64

    package init(id: String, route: Route, number: UInt64) {
        (self.id, self.route, self.number) = (id, route, number)
    }
}
