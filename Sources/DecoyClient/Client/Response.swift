import Foundation
public import HTTPTypes

/// A decoded value together with the response it came from.
public struct Response<Value> {
    /// The decoded value.
    public let value: Value
    /// The response status.
    public let status: HTTPResponse.Status
    /// The response header fields.
    public let headerFields: HTTPFields
    /// The raw body the value was decoded from.
    public let data: Data
}

extension Response: Sendable where Value: Sendable {}
