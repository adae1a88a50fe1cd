import Foundation
import HTTPTypes

/// Every way ``APIClient`` can fail, as the cases a caller switches on.
public enum APIError: Error, Sendable {
    /// The exchange did not complete: no connection, lost connection, timeout, cancellation.
    case transport(TransportFailure)
    /// The server answered with a status the client does not accept.
    case unacceptableStatus(StatusFailure)
    /// The response arrived but its body did not decode to the expected type.
    case decoding(DecodingFailure)
    /// The body did not decode as the expected type but did as the resource's fallback type.
    case fallback(DecodedFallback)
    /// A GraphQL reply listed errors.
    case graphQL(GraphQLFailure)
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
}

extension APIError: CustomStringConvertible {
    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case .transport(let failure): "transport failure (\(failure.category)): \(failure.underlying)"
        case .unacceptableStatus(let failure): "unacceptable status \(failure.status.code): \(failure.bodyText)"
        case .decoding(let failure): "decoding failed at \(failure.codingPathDescription): \(failure.underlying)"
        case .fallback(let fallback):
            "decoded the fallback \(type(of: fallback.value)) after: \(fallback.failure.underlying)"
        case .graphQL(let failure): "GraphQL errors: \(failure.errors.map(\.message).joined(separator: "; "))"
        case .invalidRequest(let reason): "invalid request: \(reason)"
        }
    }
}
