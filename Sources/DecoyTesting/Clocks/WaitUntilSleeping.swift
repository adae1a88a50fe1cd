public import Clocks
import IssueReporting

/// Waits until something sleeps on `clock` (a stub's delay, say), so that advancing the clock
/// then wakes it: advanced too early, the clock would pass before the sleep began, and the
/// sleeper would wait for a time that never comes.
///
/// ```swift
/// let request = Task { try await client.send(.user(id: 1)) }
/// await waitUntilSleeping(clock)
/// await clock.advance(by: .seconds(3))
/// ```
///
/// Waits at most `limit` of real time, then fails the running test: nothing slept.
public func waitUntilSleeping(
    _ clock: TestClock<Duration>, limit: Duration = .seconds(1),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async {
    let polls = Int(limit / .milliseconds(1))
    for _ in 0..<max(polls, 1) {
        // `checkSuspension` throws exactly when something is suspended on the clock.
        if (try? await clock.checkSuspension()) == nil { return }
        try? await Task.sleep(for: .milliseconds(1))
    }
    CallSite(fileID: fileID, filePath: filePath, line: line, column: column).fail(
        "Nothing slept on the test clock within \(limit)")
}
