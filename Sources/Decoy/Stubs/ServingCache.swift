import DecoyClient

/// Where servings keep their own encodings of a ``StubResponse`` (a prebuilt libmicrohttpd
/// response, the head in-process servings hand on), one value of each type, so that static
/// answers are encoded once, not per request.
package final class ServingCache: Sendable {
    /// A serving or two use a response: a short list, searched by type, costs less than hashing.
    private let values = Mutex<[any AnyObject & Sendable]>([])

    init() {}

    /// The cached value of type `Value`, made by `make` on first use.
    package func value<Value: AnyObject & Sendable>(_ type: Value.Type = Value.self, orMake make: () -> Value) -> Value
    {
        values.withLock { values in
            for value in values {
                if let value = value as? Value { return value }
            }
            let made = make()
            values.append(made)
            return made
        }
    }
}
