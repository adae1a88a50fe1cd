import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A failed exchange, classified so that callers can react without knowing the transport.
public struct TransportFailure: Sendable {
    /// What kind of failure this is.
    public enum Category: String, Sendable, Hashable {
        /// The connection broke after it was made (reset, closed mid-response).
        case connectionLost
        /// No answer within the time allowed.
        case timedOut
        /// The server could not be reached at all.
        case cannotConnect
        /// The caller cancelled the request.
        case cancelled
        /// Bytes arrived that are not a valid HTTP response.
        case badResponse
        /// Redirects went on past the client's ``RedirectPolicy``.
        case tooManyRedirects
        /// Anything the categories above do not describe.
        case other
    }

    /// The category callers switch on.
    public let category: Category
    /// The transport's own error, kept for logging and for cases the category does not cover.
    public let underlying: any Error

    /// Creates a failure of a known category.
    public init(_ category: Category, underlying: any Error) {
        self.category = category
        self.underlying = underlying
    }

    /// Classifies a transport's native error.
    public init(classifying error: any Error) {
        self.init(Self.category(of: error), underlying: error)
    }

    private static func category(of error: any Error) -> Category {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .other }
        switch urlError.code {
        case .networkConnectionLost: return .connectionLost
        case .timedOut: return .timedOut
        case .cannotConnectToHost, .cannotFindHost, .notConnectedToInternet, .dnsLookupFailed: return .cannotConnect
        case .cancelled: return .cancelled
        case .badServerResponse, .zeroByteResource, .cannotParseResponse, .cannotDecodeRawData: return .badResponse
        case .httpTooManyRedirects: return .tooManyRedirects
        default: return .other
        }
    }
}
