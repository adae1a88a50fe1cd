/// One event of a `text/event-stream` response, its data decoded.
public struct ServerSentEvent<Value> {
    /// The event's id, which a reconnection sends back in `Last-Event-ID`; `nil` when it set none.
    public let id: String?
    /// The event's type: its `event` field, `"message"` when it has none.
    public let type: String
    /// The event's data, its `data` lines joined by line breaks, as it came.
    public let data: String
    /// ``data`` decoded as the resource's value: the text itself for `String`, JSON otherwise.
    public let value: Value
}

extension ServerSentEvent: Sendable where Value: Sendable {}

/// The events of an event stream, as ``APIClient/events(for:)`` reads them: each iteration opens
/// the stream anew, and ends it when the iteration stops.
public struct ServerSentEvents<Value: Sendable>: AsyncSequence, Sendable {
    /// Hands an event on as it is read.
    typealias Deliver = @Sendable (ServerSentEvent<Value>) -> Void

    /// Reads the events, handing each to the function it is given, until cancelled or failing.
    private let read: @Sendable (_ deliver: @escaping Deliver) async throws(APIError) -> Void

    init(_ read: @escaping @Sendable (_ deliver: @escaping Deliver) async throws(APIError) -> Void) {
        self.read = read
    }

    /// Opens the stream; dropping the iterator closes it.
    public func makeAsyncIterator() -> StreamIterator<ServerSentEvent<Value>> {
        let (events, continuation) = AsyncThrowingStream<ServerSentEvent<Value>, any Error>.makeStream()
        let read = read
        let reading = Task {
            do throws(APIError) {
                try await read { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reading.cancel() }
        return StreamIterator(events) { reading.cancel() }
    }
}
