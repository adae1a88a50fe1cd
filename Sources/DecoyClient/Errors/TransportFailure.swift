import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What kind of failure broke an exchange, classified so that callers can react without knowing
/// the transport.
public enum TransportFailure: String, Sendable, Hashable {
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
    /// Redirects went on past the client's ``APIClient/Configuration/redirectLimit``.
    case tooManyRedirects
    /// The server's certificate has expired (or is not yet valid).
    case serverCertificateExpired
    /// The server's certificate is not trusted: signed by an authority the client does not
    /// trust, or issued for another host.
    case serverCertificateUntrusted
    /// The TLS handshake failed otherwise: the connection was reset or closed during it, or
    /// the two sides agreed on no protocol or cipher.
    case tlsFailed
    /// Anything the kinds above do not describe.
    case other

    /// Classifies a transport's native error.
    public init(classifying error: any Error) {
        self = Self.category(of: error)
    }

    private static func category(of error: any Error) -> TransportFailure {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .other }
        if let tls = tlsCategory(of: urlError) { return tls }
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

    /// The TLS failure `error` stands for: on Apple's systems by its code; on Linux, where
    /// swift-corelibs-foundation gives libcurl's TLS failures as `URLError.unknown` with
    /// libcurl's message, by that message (measured with libcurl 7.88 over OpenSSL 3 against
    /// `MockServer`'s faults: "SSL certificate problem: certificate has expired", "SSL: no
    /// alternative certificate subject name matches…", "SSL certificate problem: self-signed
    /// certificate in certificate chain", "Recv failure: Connection reset by peer").
    static func tlsCategory(of error: URLError) -> TransportFailure? {
        switch error.code {
        case .serverCertificateHasBadDate, .serverCertificateNotYetValid: return .serverCertificateExpired
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot: return .serverCertificateUntrusted
        case .secureConnectionFailed, .clientCertificateRejected, .clientCertificateRequired: return .tlsFailed
        case .unknown: break
        default: return nil
        }
        let message = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        if message.contains("certificate has expired") || message.contains("certificate is not yet valid") {
            return .serverCertificateExpired
        }
        if message.hasPrefix("SSL certificate problem") || message.hasPrefix("SSL: no alternative certificate") {
            return .serverCertificateUntrusted
        }
        // libcurl's other handshake failures: a reset or close during it, an alert, no common cipher.
        if message.contains("Connection reset by peer") || message.contains("SSL") || message.contains("TLS") {
            return .tlsFailed
        }
        return nil
    }
}
