import DecoyClient
import Dispatch

extension Clock<Duration> {
    /// Sleeps `duration` on this clock; see ``sleepOnTimer(until:)``.
    package func sleepOnTimer(for duration: Duration) async throws {
        try await sleepOnTimer(until: now.advanced(by: duration))
    }

    /// Sleeps until `deadline` on this clock, woken by a dispatch timer when this is the system's
    /// continuous or suspending clock; other clocks, a test clock among them, wake their sleepers
    /// themselves.
    ///
    /// Their own `sleep` ends by running the task on Swift's global pool, even a task that
    /// prefers an executor of its own, and a test process keeps that pool's few threads busy with
    /// its tests: in Decoy's own suite a sleep of nothing in a mock server's task ended 15 s and
    /// more late, past its client's timeout. A server's delay must end on time however busy the
    /// process it lives in is.
    package func sleepOnTimer(until deadline: Instant) async throws {
        if let deadline = deadline as? ContinuousClock.Instant {
            try await TimerSleep.sleep(for: ContinuousClock.now.duration(to: deadline))
        } else if let deadline = deadline as? SuspendingClock.Instant {
            try await TimerSleep.sleep(for: SuspendingClock.now.duration(to: deadline))
        } else {
            try await sleep(until: deadline, tolerance: nil)
        }
    }
}

/// A sleep woken by a dispatch timer, which ends the sleeper's wait on the executor the task
/// prefers, rather than on Swift's global pool.
private enum TimerSleep {
    /// Where every timer fires: a serial queue, which dispatch runs on a thread beyond the pool's;
    /// each firing only resumes a continuation.
    static let timers = DispatchQueue(label: "Decoy timers")

    /// The longest wait a timer is set for, a century, whose nanoseconds still fit an `Int`; a
    /// longer sleep ends after it.
    static let longest = Duration.seconds(100 * 365 * 24 * 3600)

    /// Sleeps `duration`, or throws `CancellationError` as soon as the task is cancelled, as the
    /// system clocks' `sleep` does.
    static func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let (seconds, attoseconds) = min(duration, longest).components
        let deadline =
            DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        let sleeper = Mutex(Sleeper.ready)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waits = sleeper.withLock { state in
                    guard case .ready = state else { return false }
                    // Made only for a sleep that waits: a timer never activated must not be released.
                    let timer = DispatchSource.makeTimerSource(queue: timers)
                    timer.setEventHandler { sleeper.withLock { $0.end() }?.resume() }
                    timer.schedule(deadline: deadline)
                    timer.activate()
                    state = .waiting(continuation, timer)
                    return true
                }
                if !waits { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            sleeper.withLock { $0.end() }?.resume(throwing: CancellationError())
        }
    }

    /// Whether a sleep is yet to wait, waits for its timer, or is over.
    enum Sleeper {
        case ready
        case waiting(CheckedContinuation<Void, any Error>, any DispatchSourceTimer)
        case over

        /// The timer fired or the task was cancelled: who to wake, once, with the timer cancelled.
        /// A sleep cancelled before it waits never waits.
        mutating func end() -> CheckedContinuation<Void, any Error>? {
            defer { self = .over }
            guard case .waiting(let continuation, let timer) = self else { return nil }
            timer.cancel()
            return continuation
        }
    }
}
