import Foundation

/// Reads a response that streams, in order: a body's chunks (``ResponseBody``) or its events
/// (``ServerSentEvents``). When its last copy goes, as when a `for try await` loop breaks, the
/// exchange stops.
///
/// A stream cut off is never read as its end: in a cancelled task a read throws
/// `CancellationError`, where the stream would have ended quietly or thrown the transport's own
/// word for it, and a body that ends short of the length its head announced throws
/// `URLError(.networkConnectionLost)`.
public struct StreamIterator<Element: Sendable>: AsyncIteratorProtocol {
    private var elements: AsyncThrowingStream<Element, any Error>.AsyncIterator
    private let reader: Reader
    private var length: ExpectedLength?

    /// Reads `elements`; `stop` ends the exchange once no copy of the iterator is left. With
    /// `length`, the elements must add up to what it expects before the stream ends.
    init(
        _ elements: AsyncThrowingStream<Element, any Error>, expecting length: ExpectedLength? = nil,
        stop: @escaping @Sendable () -> Void
    ) {
        self.elements = elements.makeAsyncIterator()
        self.length = length
        reader = Reader(stop: stop)
    }

    /// The next element; `nil` at the end, or the error that broke the stream off.
    public mutating func next() async throws -> Element? {
        let next: Element?
        do {
            next = try await elements.next()
        } catch {
            // A cancelled reader may meet its transport's own word for the cancellation first.
            try Task.checkCancellation()
            throw error
        }
        guard let element = next else {
            // AsyncThrowingStream ends without an error when the task reading it is cancelled.
            try Task.checkCancellation()
            try length?.checkEnd()
            return nil
        }
        length?.count(element)
        return element
    }

    /// The length a stream's elements must reach: a body's `Content-Length`.
    struct ExpectedLength: Sendable {
        let expected: Int64
        let measure: @Sendable (Element) -> Int
        private(set) var received: Int64 = 0

        mutating func count(_ element: Element) {
            received += Int64(measure(element))
        }

        func checkEnd() throws {
            guard received < expected else { return }
            throw URLError(
                .networkConnectionLost,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "the body ended after \(received) of the \(expected) bytes its head announced"
                ])
        }
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
