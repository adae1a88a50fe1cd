import DecoyClient

/// A slot where a serving keeps its own encoding of a ``StubResponse`` (a prebuilt
/// libmicrohttpd response, say), so that static answers are encoded once, not per request.
package final class ServingCache: Sendable {
    private let slot = Mutex<(any AnyObject & Sendable)?>(nil)

    init() {}

    /// The cached value of type `Value`, made by `make` on first use; a value of another type
    /// already in the slot keeps it, and `make`'s value is returned uncached.
    package func value<Value: AnyObject & Sendable>(_ type: Value.Type = Value.self, orMake make: () -> Value) -> Value
    {
        let cached = slot.withLock { slot in
            if let cached = slot { return cached }
            let made = make()
            slot = made
            return made
        }
        return cached as? Value ?? make()
    }
}
