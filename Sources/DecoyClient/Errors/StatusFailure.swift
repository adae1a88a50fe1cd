public import Foundation
public import HTTPTypes

/// A response whose status the client does not accept, with everything the server sent.
public struct StatusFailure: Sendable {
    /// The response status.
    public let status: HTTPResponse.Status
    /// The response header fields.
    public let headerFields: HTTPFields
    /// The raw response body.
    public let body: Data
    /// The API's own error body, decoded when the client's configuration names its type.
    public let decodedBody: (any Sendable)?

    /// Creates a failure from a response.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields, body: Data, decodedBody: (any Sendable)? = nil) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.decodedBody = decodedBody
    }

    /// The decoded error body as `type`, when it was decoded as that type.
    public func decodedBody<Body>(as type: Body.Type) -> Body? {
        decodedBody as? Body
    }

    /// The body as UTF-8 text, for messages.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
