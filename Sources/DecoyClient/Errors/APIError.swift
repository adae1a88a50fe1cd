public import Foundation
import HTTPTypes

/// Every way ``APIClient`` can fail, as the cases a caller switches on: what a request throws, and
/// what the failure stream and the delegate hear.
public enum APIError: Error, Sendable {
    /// The exchange did not complete: no connection, lost connection, timeout, cancellation; with
    /// the transport's own error, kept for logging and for what the kind does not say.
    case transport(TransportFailure, underlying: any Error)
    /// The server answered with a status the client does not accept: the response, whose value is
    /// the API's error body when the configuration names its type (`errorBodyType`) and it decodes.
    case unacceptableStatus(Response<(any Sendable)?>)
    /// The response arrived but its body did not decode to the expected type.
    case decoding(DecodingFailure)
    /// The body did not decode as the expected type but did as the resource's fallback type: the
    /// fallback value, and why the expected type did not decode.
    case fallback(any Sendable, DecodingFailure)
    /// A GraphQL reply listed errors: them, in the server's order, the part of `data` that still
    /// decoded, and the raw reply.
    case graphQL([GraphQLError], partialData: (any Sendable)?, body: Data)
    /// The request could not be built (a path that does not form a URL, a body that does not encode, a missing GraphQL
    /// document).
    case invalidRequest(reason: String)
}

extension APIError {
    /// The failure of a decoding step: an ``APIError`` it threw (a fallback) as is, anything
    /// else as a decoding failure of `data`.
    init(parsing error: any Error, of data: Data) {
        self = error as? APIError ?? .decoding(DecodingFailure(error, body: data))
    }

    /// A transport's native error, classified.
    init(transporting error: any Error) {
        self = .transport(TransportFailure(classifying: error), underlying: error)
    }
}

extension APIError: CustomStringConvertible {
    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case .transport(let failure, let underlying): "transport failure (\(failure)): \(underlying)"
        case .unacceptableStatus(let response):
            "unacceptable status \(response.status.code): \(String(decoding: response.body, as: UTF8.self))"
        case .decoding(let failure): "decoding failed at \(failure.codingPathDescription): \(failure.underlying)"
        case .fallback(let value, let failure): "decoded the fallback \(type(of: value)) after: \(failure.underlying)"
        case .graphQL(let errors, _, _): "GraphQL errors: \(errors.map(\.message).joined(separator: "; "))"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        }
    }
}
