import DecoyClient
package import Foundation

/// A thread of its own that runs a flush every `interval`, and a last time when closed.
///
/// What writes the request log: the server's threads only append to a buffer, and this thread
/// empties it in batches, so that no request pays for formatting, writing or waking anyone.
/// What sweeps the head deadlines too, on time however busy Swift's task pool is.
package final class PeriodicFlush: Sendable {
    private let interval: DispatchTimeInterval
    private let closing = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let state = Mutex((isStarted: false, isClosed: false))

    package init(every interval: DispatchTimeInterval) {
        self.interval = interval
    }

    /// Starts the thread, once. `flush` should hold its owner weakly, as the thread keeps it until ``close()``.
    package func start(_ flush: @escaping @Sendable () -> Void) {
        guard
            !state.withLock({ state in
                defer { state.isStarted = true }; return state.isStarted
            })
        else { return }
        Thread { [closing, done, interval] in
            while closing.wait(timeout: .now() + interval) == .timedOut { flush() }
            flush()
            done.signal()
        }.start()
    }

    /// Runs the last flush and returns once it is done; closing again, or before a start, does nothing.
    package func close() {
        let wasRunning = state.withLock { state in
            defer { state.isClosed = true }
            return state.isStarted && !state.isClosed
        }
        guard wasRunning else { return }
        closing.signal()
        done.wait()
    }
}
