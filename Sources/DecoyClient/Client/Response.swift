import Foundation
public import HTTPTypes

/// A decoded value together with the response it came from.
public struct Response<Value> {
    /// Where a response came from.
    public enum Source: Sendable, Hashable {
        /// The transport, just now.
        case network
        /// The client's ``ResponseCache``.
        case cache
    }

    /// The decoded value.
    public let value: Value
    /// The response status.
    public let status: HTTPResponse.Status
    /// The response header fields.
    public let headerFields: HTTPFields
    /// The body the value was decoded from, as it came.
    public let body: Data
    /// Whether the network or the cache answered.
    public let source: Source
}

extension Response: Sendable where Value: Sendable {}

extension Response {
    /// `value`, decoded from `answer`.
    init(_ value: Value, of answer: CachedResponse, from source: Source) {
        self.init(
            value: value, status: answer.response.status, headerFields: answer.response.headerFields, body: answer.body,
            source: source)
    }
}
