/// Hands each failure to every listening stream; streams that end stop listening.
final class FailureBroadcast: Sendable {
    private let listeners = Mutex<[UInt64: @Sendable (ClientFailure) -> Void]>([:])
    private let nextID = Mutex<UInt64>(0)

    /// A stream of what `element` makes of each failure from now on.
    func stream<Element: Sendable>(of element: @escaping @Sendable (ClientFailure) -> Element) -> AsyncStream<Element> {
        let id = nextID.withLock { next in
            next += 1
            return next
        }
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(256))
        continuation.onTermination = { [weak self] _ in
            _ = self?.listeners.withLock { $0.removeValue(forKey: id) }
        }
        listeners.withLock { $0[id] = { continuation.yield(element($0)) } }
        return stream
    }

    func send(_ failure: ClientFailure) {
        let current = listeners.withLock { Array($0.values) }
        for listener in current { listener(failure) }
    }
}
