#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A value behind a lock, with the `withLock` of `Synchronization.Mutex`, which needs iOS 18 and
/// macOS 15 while Decoy runs from iOS 16 and macOS 13.
///
/// A `pthread_mutex_t` on every platform, so that the code built and tested on Linux is the code
/// that runs on Apple's. Unlike `Synchronization.Mutex` it is copyable: copies share one lock and
/// one value, so it can be captured by an escaping closure like any reference.
package struct Mutex<Value>: @unchecked Sendable {
    // @unchecked, as `Synchronization.Mutex`: the value is reached only inside `withLock`, with
    // the lock held, and goes in and comes out as `sending`.
    private let storage: Storage
    /// Into `storage`, kept past the `withUnsafeMutablePointers` closure that lent them, which is
    /// safe: the value and the lock live inline in the one heap instance, which never moves;
    /// `storage` is a `let` of every copy, so the instance outlives each `withLock`, the only place
    /// they are used. Reading them inside the closure instead makes `sending` uncheckable.
    private let value: UnsafeMutablePointer<Value>
    private let lock: UnsafeMutablePointer<pthread_mutex_t>

    /// Creates a lock guarding `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        storage = Storage.make(initialValue)
        (value, lock) = storage.withUnsafeMutablePointers { ($0, $1) }
    }

    /// Runs `body` with the lock held and the value to read or change; the lock is released when
    /// `body` returns or throws. `body` must not call `withLock` on the same mutex again.
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return try body(&value.pointee)
    }

    /// One allocation holding the value (the header) and the lock (the single element), so that
    /// the lock never moves, as POSIX requires of an initialised mutex.
    private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        static func make(_ value: consuming sending Value) -> Storage {
            let initialValue = consume value
            let buffer = create(minimumCapacity: 1) { _ in initialValue }
            // Safe: `create` called on a subclass allocates an instance of that subclass.
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { lock in
                // No Swift initial value: `pthread_mutex_init` writes the whole of this plain C value.
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                defer { pthread_mutexattr_destroy(&attributes) }
                #if canImport(Glibc)
                    // Spins a little before sleeping, as `Synchronization.Mutex` does on Linux: the
                    // server's threads hold these locks for a few instructions, less than a sleep costs.
                    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
                #endif
                let status = pthread_mutex_init(lock, &attributes)
                precondition(status == 0, "pthread_mutex_init failed: \(status)")
            }
            return storage
        }

        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }
}
