/// How far a transfer has come: bytes sent or received, of how many.
public struct TransferProgress: Sendable, Hashable {
    /// The bytes done so far.
    public let completed: Int64
    /// The bytes there are in all: a download's `Content-Length`, an upload's size; `nil` when
    /// unknown.
    public let expected: Int64?

    /// Progress of `completed` bytes out of `expected`.
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected
    }

    /// The part done, from 0 to 1; `nil` when the total is unknown.
    public var fraction: Double? {
        expected.map { $0 > 0 ? Double(completed) / Double($0) : 1 }
    }
}

/// A download or upload under way: its progress as it goes, then its value.
///
/// It starts when made. ``progress`` ends when the transfer does; ``cancel()`` stops it, and its
/// value then throws ``APIError/transport(_:underlying:)`` with ``TransportFailure/cancelled``.
public struct Transfer<Value: Sendable>: Sendable {
    /// The progress, each time more is done, from zero bytes on; every step is kept until read.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Value, any Error>

    /// Runs `work`, which tells its progress to the function it is given.
    init(_ work: @escaping @Sendable (_ report: @escaping @Sendable (TransferProgress) -> Void) async throws -> Value) {
        let (progress, continuation) = AsyncStream<TransferProgress>.makeStream()
        self.progress = progress
        task = Task {
            defer { continuation.finish() }
            return try await work { continuation.yield($0) }
        }
    }

    /// The transfer's value once it is done. Cancelling the task that awaits it cancels the
    /// transfer, as ``cancel()`` does.
    public var value: Value {
        get async throws(APIError) {
            do {
                return try await withTaskCancellationHandler {
                    try await task.value
                } onCancel: { [task] in
                    task.cancel()
                }
            } catch {
                throw APIError(streaming: error)
            }
        }
    }

    /// Stops the transfer.
    public func cancel() {
        task.cancel()
    }
}
