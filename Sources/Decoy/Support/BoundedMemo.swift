import DecoyClient
import HTTPTypes

/// Values made before, by key, emptied when full: for answers that cost more to make than to look
/// up and that tests and load generators repeat, such as the unmatched 404's closest routes.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: Value] = [:]
        /// The hashes of keys looked up without a value, each in the slot its low bits pick: a key
        /// found here was asked for before. A clash only makes a key look repeated when it is not.
        var missed: [Int]
    }

    private let state: Mutex<State>
    private let capacity: Int

    /// Creates a memo that keeps at most `capacity` values.
    package init(capacity: Int = 1_024) {
        self.capacity = capacity
        // Four slots a value, a power of two, so that a slot is the hash's low bits.
        var slots = 1
        while slots < 4 * capacity { slots *= 2 }
        state = Mutex(State(missed: Array(repeating: 0, count: slots)))
    }

    /// The value kept for `key`, if any.
    package subscript(key: Key) -> Value? {
        state.withLock { $0.entries[key] }
    }

    /// The value kept for `key`, if any, and whether `key` was looked up here before: a value is
    /// worth keeping for a key asked for again, not for one asked for once, such as one of many
    /// distinct targets, which would only push out the values of the keys that repeat.
    package func lookUp(_ key: Key) -> (value: Value?, isRepeated: Bool) {
        let hash = key.hashValue
        return state.withLock { state in
            if let value = state.entries[key] { return (value, true) }
            let slot = hash & (state.missed.count - 1)
            defer { state.missed[slot] = hash }
            return (nil, state.missed[slot] == hash)
        }
    }

    /// Keeps `value` for `key`; past the capacity, everything kept before is dropped first.
    package func keep(_ value: Value, for key: Key) {
        state.withLock { state in
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
    }
}
