public import Foundation
import HTTPTypes

/// A response body as it arrives: an asynchronous sequence of its chunks, in order, which ends
/// with the body or throws the error that broke it off.
///
/// It is read once. ``cancel()`` stops the exchange before its end, and so do cancelling the task
/// that reads it and dropping its iterator (a `break` out of a `for try await` loop); a body never
/// read keeps its exchange going, its chunks kept, until it is cancelled.
///
/// A body stopped early never reads as a whole one: after ``cancel()``, or in a cancelled task,
/// reading throws `CancellationError`; a body that ends short of the `Content-Length` its head
/// announced throws `URLError(.networkConnectionLost)`, whatever the transport reported.
///
/// Each chunk is as the transport received it, never empty.
public struct ResponseBody: AsyncSequence, Sendable {
    private let chunks: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var expectedLength: Int64?

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

    /// Stops the exchange: the producer's `onTermination` runs, and a reader gets the chunks
    /// already received, then `CancellationError`.
    public func cancel() {
        continuation.finish(throwing: CancellationError())
    }

    /// This body, held to the length `head` announces for a response to `method`: one that ends
    /// short of it fails. No length is held where the bytes read differ from those counted by
    /// `Content-Length` by design: an answer without a body (`HEAD`, `1xx`, `204`, `304`) and one
    /// whose content coding a transport may undo.
    func expecting(lengthOf head: HTTPResponse, answering method: HTTPRequest.Method) -> ResponseBody {
        let status = head.status.code
        guard method != .head, status >= 200, status != 204, status != 304,
            head.headerFields[.contentEncoding].map({ $0.lowercased() == "identity" }) ?? true,
            let length = head.headerFields[.contentLength].flatMap({ Int64($0) })
        else { return self }
        var body = self
        body.expectedLength = length
        return body
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
        StreamIterator(
            chunks, expecting: expectedLength.map { StreamIterator.ExpectedLength(expected: $0, measure: \.count) }
        ) { [continuation] in continuation.finish() }
    }
}
