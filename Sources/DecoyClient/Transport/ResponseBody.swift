public import Foundation

/// A response body as it arrives: an asynchronous sequence of its chunks, in order, which ends
/// with the body or throws the error that broke it off.
///
/// It is read once. ``cancel()`` stops the exchange before its end, and so do cancelling the task
/// that reads it and dropping its iterator (a `break` out of a `for try await` loop); a body never
/// read keeps its exchange going, its chunks kept, until it is cancelled.
///
/// Each chunk is as the transport received it, never empty.
public struct ResponseBody: AsyncSequence, Sendable {
    private let chunks: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation

    /// A body whose chunks `produce` yields: it finishes the continuation at the body's end, and
    /// its `onTermination` stops the exchange when the reader stops early.
    public init(producing produce: (AsyncThrowingStream<Data, any Error>.Continuation) -> Void) {
        (chunks, continuation) = AsyncThrowingStream.makeStream()
        produce(continuation)
    }

    /// A body that is all there already: `data` as one chunk, or no chunk when it is empty.
    public init(_ data: Data) {
        self.init { continuation in
            if !data.isEmpty { continuation.yield(data) }
            continuation.finish()
        }
    }

    /// Stops the exchange: the producer's `onTermination` runs and the sequence ends.
    public func cancel() {
        continuation.finish()
    }

    /// Reads the rest of the body into memory.
    public func collected() async throws -> Data {
        var data = Data()
        for try await chunk in self { data.append(chunk) }
        return data
    }

    /// Reads the chunks in order; a reader that stops early, dropping its iterator, stops the
    /// exchange as ``cancel()`` does.
    public func makeAsyncIterator() -> StreamIterator<Data> {
        StreamIterator(chunks) { [continuation] in continuation.finish() }
    }
}
