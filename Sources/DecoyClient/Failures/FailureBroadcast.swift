/// Hands each failure to every listening stream; streams that end stop listening.
final class FailureBroadcast: Sendable {
    private let listeners = Mutex<[UInt64: AsyncStream<APIError>.Continuation]>([:])
    private let nextID = Mutex<UInt64>(0)

    func stream() -> AsyncStream<APIError> {
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        let (stream, continuation) = AsyncStream<APIError>.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = continuation }
        return stream
    }

    func send(_ failure: APIError) {
        let current = listeners.withLock { Array($0.values) }
        for continuation in current { continuation.yield(failure) }
    }
}
