import Foundation

/// What a ``Resource`` sends as its request body.
public enum RequestBody: Sendable {
    /// Raw bytes with an optional `Content-Type`.
    case data(Data, contentType: String?)
    /// A value encoded by the client's JSON encoder when the request is sent.
    case json(any Encodable & Sendable)

    /// The bytes to send and the content type they imply.
    func encoded(with encoder: JSONEncoder) throws -> (Data, String?) {
        switch self {
        case .data(let data, let contentType):
            (data, contentType)
        case .json(let value):
            (try encoder.encode(value), "application/json")
        }
    }
}
