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
