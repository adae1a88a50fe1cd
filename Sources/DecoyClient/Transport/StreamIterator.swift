/// Reads a response that streams, in order: a body's chunks (``ResponseBody``) or its events
/// (``ServerSentEvents``). When its last copy goes, as when a `for try await` loop breaks, the
/// exchange stops.
public struct StreamIterator<Element: Sendable>: AsyncIteratorProtocol {
    private var elements: AsyncThrowingStream<Element, any Error>.AsyncIterator
    private let reader: Reader

    /// Reads `elements`; `stop` ends the exchange once no copy of the iterator is left.
    init(_ elements: AsyncThrowingStream<Element, any Error>, stop: @escaping @Sendable () -> Void) {
        self.elements = elements.makeAsyncIterator()
        reader = Reader(stop: stop)
    }

    /// The next element; `nil` at the end, or the error that broke the stream off.
    public mutating func next() async throws -> Element? {
        try await elements.next()
    }

    /// Stops the exchange when the last copy of an iterator goes: an iterator dropped does not
    /// end a stream whose producer still holds its continuation.
    private final class Reader: Sendable {
        private let stop: @Sendable () -> Void

        init(stop: @escaping @Sendable () -> Void) {
            self.stop = stop
        }

        deinit {
            stop()
        }
    }
}
