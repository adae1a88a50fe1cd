import DecoyClient
import HTTPTypes

/// Values made before, by key, emptied when full: for answers that cost more to make than to look
/// up and that tests and load generators repeat, such as the unmatched 404's closest routes.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int

    /// Creates a memo that keeps at most `capacity` values.
    package init(capacity: Int = 1_024) {
        self.capacity = capacity
    }

    /// The value kept for `key`, if any.
    package subscript(key: Key) -> Value? {
        entries.withLock { $0[key] }
    }

    /// Keeps `value` for `key`; past the capacity, everything kept before is dropped first.
    package func keep(_ value: Value, for key: Key) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }
}

/// What an unmatched request's 404 depends on besides the routes, when no route near it looks at
/// header fields, cookies, the body or a scenario: the method and the target.
struct RequestLine: Hashable, Sendable {
    let method: HTTPRequest.Method
    let target: String

    init(_ request: StubRequest) {
        method = request.method
        target = request.target
    }
}
