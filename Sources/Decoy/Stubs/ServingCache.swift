import DecoyClient

/// A slot where a serving keeps its own encoding of a ``StubResponse`` (a prebuilt
/// libmicrohttpd response, say), so that static answers are encoded once, not per request.
package final class ServingCache: Sendable {
    private let slot = Mutex<(any AnyObject & Sendable)?>(nil)

    init() {}

    /// The cached value of type `Value`, made by `make` on first use.
    package func value<Value: AnyObject & Sendable>(_ type: Value.Type = Value.self, orMake make: () -> Value) -> Value {
        slot.withLock { slot in
            // Comparing types and downcasting unchecked skips the runtime's dynamic cast, which
            // costs more than the rest of a cache hit on the server's hot path.
            if let cached = slot, ObjectIdentifier(Swift.type(of: cached)) == ObjectIdentifier(Value.self) {
                return unsafeDowncast(cached, to: Value.self)
            }
            let made = make()
            slot = made
            return made
        }
    }
}
