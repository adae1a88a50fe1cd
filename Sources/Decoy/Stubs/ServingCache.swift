import Atomics

/// A slot where a serving keeps its own encoding of a ``StubResponse`` (a prebuilt
/// libmicrohttpd response, say), so that static answers are encoded once, not per request.
package final class ServingCache: Sendable {
    /// Set once, then only read: a hit on the server's hot path is one atomic load, where a lock
    /// would have the server's threads write the same cache line for every request.
    private let slot = ManagedAtomicLazyReference<any AnyObject & Sendable>()

    init() {}

    /// The cached value of type `Value`, made by `make` on first use; a value of another type
    /// already in the slot keeps it, and `make`'s value is returned uncached.
    package func value<Value: AnyObject & Sendable>(_ type: Value.Type = Value.self, orMake make: () -> Value) -> Value
    {
        let cached = slot.load() ?? slot.storeIfNilThenLoad(make())
        // Comparing types and downcasting unchecked skips the runtime's dynamic cast, which
        // costs more than the rest of a cache hit on the server's hot path.
        guard ObjectIdentifier(Swift.type(of: cached)) == ObjectIdentifier(Value.self) else { return make() }
        return unsafeDowncast(cached, to: Value.self)
    }
}
