import Foundation

/// Runs blocking work (a read on a socket, a program to wait for) on a thread of its own and
/// awaits its result.
///
/// Not on a dispatch queue: on Linux, Swift's concurrent executor runs on libdispatch's global
/// root queue, whose few threads a blocked work item takes from every task. A handful of reads
/// waiting out their timeout there once stalled the whole test run for over a minute, every
/// URLSession and server test timing out behind them.
package func offThePool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.start()
    }
}

/// ``offThePool(_:)`` for work that throws.
package func offThePool<Value: Sendable>(throwing work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await offThePool { Result { try work() } }.get()
}
