import CMicroHTTPD
import Decoy
import DecoyClient

/// The exchanges whose connections are suspended while a task awaits their answer.
///
/// A task registers under the same lock it later takes to resume its connection, and stopping
/// takes that lock too: so a connection is resumed exactly once, and never after the daemon is
/// told to stop (libmicrohttpd aborts if it is stopped with a connection still suspended).
final class SuspendedExchanges: Sendable {
    private struct Entry {
        let exchange: Exchange
        let task: Task<Void, Never>
    }

    private struct State {
        var isOpen = true
        var entries: [ObjectIdentifier: Entry] = [:]
    }

    /// What a resumed connection does next.
    enum Resumption: Sendable {
        /// Translate this delivery of the engine's.
        case deliver(Delivery)
        /// Answer with this on the server's own behalf, as the admin API does.
        case reply(StubResponse)
        /// Carry on with what it was doing: send the next piece of a throttled body.
        case proceed
        /// Close the connection without an answer.
        case close
    }

    private let state = Mutex(State())

    /// How many connections are suspended now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Suspends the exchange's connection until `work` tells how to resume it.
    ///
    /// Call it from the connection's handler or its response's content reader.
    func suspend(_ exchange: Exchange, until work: @escaping @Sendable () async -> Resumption) {
        exchange.wait()
        MHD_suspend_connection(exchange.connection)
        let id = ObjectIdentifier(exchange)
        state.withLock { state in
            guard state.isOpen else {
                exchange.close()
                MHD_resume_connection(exchange.connection)
                return
            }
            let task = Task { [self] in
                resume(id, with: await work())
            }
            state.entries[id] = Entry(exchange: exchange, task: task)
        }
    }

    private func resume(_ id: ObjectIdentifier, with resumption: Resumption) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            entry.exchange.resume(with: resumption)
            MHD_resume_connection(entry.exchange.connection)
        }
    }

    /// Cancels every wait and resumes every connection to be closed; later suspensions close at once.
    func closeAll() {
        state.withLock { state in
            state.isOpen = false
            for entry in state.entries.values {
                entry.task.cancel()
                entry.exchange.close()
                MHD_resume_connection(entry.exchange.connection)
            }
            state.entries = [:]
        }
    }
}
