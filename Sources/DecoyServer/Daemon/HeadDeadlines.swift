import Atomics
import CMicroHTTPD
import DecoyClient
import Foundation

/// Cuts off connections that take longer than the connection timeout to send a request head.
///
/// libmicrohttpd's own timeout counts from the last byte received, so a client that sends a
/// byte every few seconds would hold its connection forever. Each connection gets a watch that
/// holds a deadline while the head is awaited (from the connection's start or the previous
/// answer) and none while a request is served; a thread of its own sweeps the watches and shuts
/// the sockets of those past their deadline, which libmicrohttpd then closes as it would any other.
final class HeadDeadlines: Sendable {
    /// One connection's deadline, in ``Nanoseconds/roughlyNow``'s nanoseconds; 0 while none is set.
    final class Watch: Sendable {
        fileprivate let socket: Int32
        fileprivate let deadline = ManagedAtomic<Int64>(0)
        private let owner: HeadDeadlines

        fileprivate init(socket: Int32, owner: HeadDeadlines) {
            self.socket = socket
            self.owner = owner
        }

        /// The head has arrived: no deadline until the answer is sent.
        func headArrived() {
            deadline.store(0, ordering: .relaxed)
        }

        /// The answer is sent; the next head, if any, is due within the timeout.
        func awaitHead() {
            deadline.store(Nanoseconds.roughlyNow + owner.timeout, ordering: .relaxed)
        }
    }

    /// In nanoseconds: a deadline is set on every answer, so it is worked out without `Duration`.
    private let timeout: Int64
    private let watches = Mutex<[ObjectIdentifier: Watch]>([:])
    /// A thread of its own, not a task: the code under test may keep Swift's few pool threads
    /// busy for seconds, and a sweep must run on time for slow heads to be cut.
    private let sweeper: PeriodicFlush

    init(timeout: Duration) {
        self.timeout = Nanoseconds.of(timeout)
        // A few times per timeout and at least once a second.
        sweeper = PeriodicFlush(every: .nanoseconds(Int(max(50_000_000, min(1_000_000_000, self.timeout / 4)))))
    }

    /// Starts sweeping.
    func start() {
        sweeper.start { [weak self] in self?.sweep() }
    }

    /// Stops sweeping, after a last sweep; returns once the sweeper's thread is done.
    func stop() {
        sweeper.close()
    }

    /// A watch for a connection just accepted, its first head due within the timeout.
    func watch(socket: Int32) -> Watch {
        let watch = Watch(socket: socket, owner: self)
        watch.awaitHead()
        watches.withLock { $0[ObjectIdentifier(watch)] = watch }
        return watch
    }

    /// Forgets a closing connection's watch. libmicrohttpd calls this before it closes the
    /// socket, and the sweeper shuts sockets only under the same lock, so it never shuts a
    /// descriptor that has been closed and reused.
    func remove(_ watch: Watch) {
        _ = watches.withLock { $0.removeValue(forKey: ObjectIdentifier(watch)) }
    }

    private func sweep() {
        let now = Nanoseconds.roughlyNow
        watches.withLock { watches in
            for watch in watches.values {
                let deadline = watch.deadline.load(ordering: .relaxed)
                guard deadline != 0, deadline < now else { continue }
                watch.deadline.store(0, ordering: .relaxed)
                shutdown(watch.socket, Int32(SHUT_RDWR))
            }
        }
    }
}
