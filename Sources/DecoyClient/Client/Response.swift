public import Foundation
public import HTTPTypes

/// Where a ``Response`` came from.
public enum ResponseSource: Sendable, Hashable {
    /// The transport, just now.
    case network
    /// The client's ``ResponseCache``.
    case cache
    /// The client's ``ResponseCache``, after the server answered a conditional request with
    /// `304 Not Modified`: the stored body, with the 304's header fields.
    case revalidated
}

/// A decoded value together with the response it came from; for an unaccepted status
/// (``APIError/unacceptableStatus(_:)``), the API's decoded error body, if any.
public struct Response<Value> {
    /// The decoded value.
    public let value: Value
    /// The response status.
    public let status: HTTPResponse.Status
    /// The response header fields.
    public let headerFields: HTTPFields
    /// The body the value was decoded from, as it came.
    public let body: Data
    /// Whether the network or the cache answered, and whether the server confirmed the cached answer.
    public let source: ResponseSource
}

extension Response: Sendable where Value: Sendable {}

extension Response {
    /// `value`, decoded from `answer`.
    init(_ value: Value, of answer: CachedResponse, from source: ResponseSource) {
        self.init(
            value: value, status: answer.response.status, headerFields: answer.response.headerFields, body: answer.body,
            source: source)
    }
}

extension Response where Value == (any Sendable)? {
    /// An answer whose status the client does not accept, as ``APIError/unacceptableStatus(_:)``
    /// carries it: its value the decoded error body, if any.
    init(unaccepted head: HTTPResponse, body: Data, errorBody: (any Sendable)? = nil) {
        self.init(value: errorBody, status: head.status, headerFields: head.headerFields, body: body, source: .network)
    }
}
