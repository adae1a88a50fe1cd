import CMicroHTTPD
import Decoy
import Synchronization

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

    private let state = Mutex(State())

    /// How many connections are suspended now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Suspends the exchange's connection until `work` gives its answer; `nil` closes the connection.
    ///
    /// Call it from the connection's handler.
    func suspend(_ exchange: Exchange, until work: @escaping @Sendable () async -> StubAnswer?) {
        MHD_suspend_connection(exchange.connection)
        let id = ObjectIdentifier(exchange)
        state.withLock { state in
            guard state.isOpen else {
                exchange.isClosing = true
                MHD_resume_connection(exchange.connection)
                return
            }
            let task = Task { [self] in
                let answer = await work()
                resume(id, with: answer)
            }
            state.entries[id] = Entry(exchange: exchange, task: task)
        }
    }

    private func resume(_ id: ObjectIdentifier, with answer: StubAnswer?) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            entry.exchange.answer = answer
            entry.exchange.isClosing = answer == nil
            MHD_resume_connection(entry.exchange.connection)
        }
    }

    /// Cancels every wait and resumes every connection to be closed; later suspensions close at once.
    func closeAll() {
        state.withLock { state in
            state.isOpen = false
            for entry in state.entries.values {
                entry.task.cancel()
                entry.exchange.isClosing = true
                MHD_resume_connection(entry.exchange.connection)
            }
            state.entries = [:]
        }
    }
}
