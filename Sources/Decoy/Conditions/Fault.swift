public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A broken exchange instead of an answer.
///
/// Each serving realises a fault its own way (the server breaks the connection, the in-process
/// transports throw), so that the client sees the same error in both.
public enum Fault: Sendable, Hashable {
    /// The connection is reset before a response is sent; the server sends a status line first,
    /// so that no client mistakes it for a stale keep-alive connection and silently retries.
    case connectionReset
    /// The connection is closed without a single byte of response.
    ///
    /// A client may take this for a keep-alive connection the server had already closed, and
    /// send the request again on a new one, as libcurl under `URLSession` on Linux does: the
    /// client still fails, but the stub is reached twice. Put the fault first on its
    /// connection (or use a fresh session) where the count matters.
    case emptyResponse
    /// A response that is not valid HTTP is sent, then the connection is closed.
    case malformedResponse
    /// Random bytes are sent, then the connection is closed.
    case randomDataThenClose
    /// No answer at all, until the client gives up.
    case timeout
    /// A transport error with this code; in-process servings only, as no server can make a client raise it.
    case transportError(URLError.Code)
    /// A proxied request whose upstream failed with this error, for the reason given. It is a
    /// failure the journal notes, not a broken exchange: every serving answers with the
    /// response's status and body (``ProxyStub``'s `502 Bad Gateway` and the reason), as a
    /// gateway does, since no server can make its client raise the upstream's error.
    case proxyFailure(URLError.Code, reason: String)

    /// The error an in-process serving throws: what `URLSessionTransport` reports for the
    /// server's version of the fault (measured on Linux against ``MockServer``).
    var inProcessError: URLError {
        switch self {
        case .connectionReset: URLError(.networkConnectionLost)
        case .emptyResponse: URLError(.badServerResponse)
        case .malformedResponse, .randomDataThenClose: URLError(.cannotParseResponse)
        case .timeout: URLError(.timedOut)
        case .transportError(let code): URLError(code)
        case .proxyFailure(let code, let reason): URLError(code, userInfo: [NSLocalizedDescriptionKey: reason])
        }
    }

    /// Whether the response is sent, its status and body saying what failed, rather than the exchange
    /// broken: the engine delivers such a response like any other, in every serving.
    package var isAnsweredOverHTTP: Bool {
        if case .proxyFailure = self { true } else { false }
    }
}
