import DecoyClient

/// The exchanges whose connections are suspended while a task awaits how to go on.
///
/// A task registers under the same lock it later takes to resume its connection, and stopping
/// takes that lock too: so a connection is resumed exactly once, and never after the daemon is
/// told to stop (libmicrohttpd aborts if it is stopped with a connection still suspended). The
/// exchange's machine is moved on under the lock, and the daemon resumes the connection as the
/// machine's action says, still under it. It keeps nothing of a request but the task awaiting it,
/// which stopping cancels; where the request is, is its machine's.
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

    /// Resumes the exchange's connection, just suspended, once `work` tells how to go on; at once,
    /// to be closed, when the server is stopping.
    func add(_ exchange: Exchange, until work: @escaping @Sendable () async -> ExchangeStateMachine.Resumption) {
        let id = ObjectIdentifier(exchange)
        state.withLock { state in
            guard state.isOpen else {
                exchange.daemon.perform(exchange.machine.serverStopped(), for: exchange)
                return
            }
            let task = ServingExecutor.task { [self] in
                resume(id, with: await work())
            }
            state.entries[id] = Entry(exchange: exchange, task: task)
        }
    }

    private func resume(_ id: ObjectIdentifier, with resumption: ExchangeStateMachine.Resumption) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            entry.exchange.daemon.perform(entry.exchange.machine.resumed(with: resumption), for: entry.exchange)
        }
    }

    /// Cancels every wait and resumes every connection to be closed; later suspensions close at once.
    func closeAll() {
        state.withLock { state in
            state.isOpen = false
            for entry in state.entries.values {
                entry.task.cancel()
                entry.exchange.daemon.perform(entry.exchange.machine.serverStopped(), for: entry.exchange)
            }
            state.entries = [:]
        }
    }
}
