import Decoy
import Testing

/// The engine's sleeps on the system clocks: woken by a dispatch timer, ended by cancellation.
@Suite("A sleep on a timer")
struct TimerSleepTests {
    @Test func aSleepOnTheContinuousClockLastsItsDuration() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        try await clock.sleepOnTimer(for: .milliseconds(30))
        #expect(clock.now - start >= .milliseconds(30))
    }

    @Test func aSleepOnTheSuspendingClockLastsUntilItsDeadline() async throws {
        let clock = SuspendingClock()
        let deadline = clock.now.advanced(by: .milliseconds(30))
        try await clock.sleepOnTimer(until: deadline)
        #expect(clock.now >= deadline)
    }

    @Test func aSleepIsCancelledAtOnce() async {
        let sleep = Task { try await ContinuousClock().sleepOnTimer(for: .seconds(60)) }
        // Cancelled once it waits, most often, or before it does: each ends in CancellationError.
        await Task.yield()
        sleep.cancel()
        await #expect(throws: CancellationError.self) { try await sleep.value }
    }

    @Test func aSleepInACancelledTaskDoesNotBegin() async {
        let sleep = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await ContinuousClock().sleepOnTimer(for: .zero)
        }
        await #expect(throws: CancellationError.self) { try await sleep.value }
    }
}
