public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A broken exchange instead of an answer.
///
/// Each serving realises a fault its own way (the server breaks the connection, the in-process
/// transports throw), so that the client sees the same error in both.
public enum Fault: Sendable, Hashable {
    /// The connection is reset before a response is sent.
    case connectionReset
    /// The connection is closed without a single byte of response.
    case emptyResponse
    /// A response that is not valid HTTP is sent, then the connection is closed.
    case malformedResponse
    /// Random bytes are sent, then the connection is closed.
    case randomDataThenClose
    /// No answer at all, until the client gives up.
    case timeout
    /// A transport error with this code; in-process servings only, as no server can make a client raise it.
    case transportError(URLError.Code)

    /// The error an in-process serving throws: what `URLSessionTransport` reports for the
    /// server's version of the fault (measured on Linux against ``MockServer``).
    var inProcessError: URLError {
        switch self {
        case .connectionReset: URLError(.networkConnectionLost)
        case .emptyResponse: URLError(.badServerResponse)
        case .malformedResponse, .randomDataThenClose: URLError(.cannotParseResponse)
        case .timeout: URLError(.timedOut)
        case .transportError(let code): URLError(code)
        }
    }
}
