public import Foundation
import HTTPTypes

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

    /// The bytes of `body`, if any, with their content type set in `fields` unless one is there.
    static func encode(
        _ body: RequestBody?, with encoder: JSONEncoder, into fields: inout HTTPFields,
        describing request: @autoclosure () -> String
    ) throws(APIError) -> Data? {
        guard let body else { return nil }
        do {
            let (data, contentType) = try body.encoded(with: encoder)
            if let contentType, fields[.contentType] == nil { fields[.contentType] = contentType }
            return data
        } catch {
            throw .invalidRequest(reason: "the body of \(request()) does not encode: \(error)")
        }
    }
}
