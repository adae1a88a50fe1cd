public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A TLS handshake that goes wrong, so that a client's certificate checks, pinning and error
/// paths can be tested.
///
/// A handshake comes before any request, so a fault belongs to a whole HTTPS port of a
/// `MockServer`, or to a whole ``StubRegistry`` in-process (``StubRegistry/tlsFault``), never to a
/// route. The in-process servings throw the error URLSession gives for the server's fault.
public enum TLSFault: String, Sendable, Hashable, CaseIterable {
    /// The server's certificate expired yesterday.
    case expiredCertificate = "expired-certificate"
    /// The server's certificate names another host (`wrong-host.invalid`), not the one asked for.
    case wrongHost = "wrong-host"
    /// The server's certificate is signed by an authority the client was not given.
    case unknownAuthority = "unknown-authority"
    /// The connection is reset as the handshake starts.
    case handshakeReset = "handshake-reset"
    /// The server takes the connection and never answers the handshake, until the client gives up.
    case handshakeStall = "handshake-stall"

    /// The error URLSession gives for the server's version of the fault: on Linux, measured
    /// against `MockServer` (swift-corelibs-foundation reports libcurl's TLS failures as
    /// `URLError.unknown` with libcurl's message, which `TransportFailure` reads); on Apple's
    /// systems, the codes their URLSession documents.
    public var urlError: URLError {
        #if canImport(FoundationNetworking)
            switch self {
            case .expiredCertificate: Self.curlFailure("SSL certificate problem: certificate has expired")
            case .wrongHost:
                Self.curlFailure("SSL: no alternative certificate subject name matches target host name '127.0.0.1'")
            case .unknownAuthority:
                Self.curlFailure("SSL certificate problem: self-signed certificate in certificate chain")
            case .handshakeReset: Self.curlFailure("Recv failure: Connection reset by peer")
            case .handshakeStall: URLError(.timedOut)
            }
        #else
            switch self {
            case .expiredCertificate: URLError(.serverCertificateHasBadDate)
            case .wrongHost, .unknownAuthority: URLError(.serverCertificateUntrusted)
            case .handshakeReset: URLError(.secureConnectionFailed)
            case .handshakeStall: URLError(.timedOut)
            }
        #endif
    }

    #if canImport(FoundationNetworking)
        private static func curlFailure(_ message: String) -> URLError {
            URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        }
    #endif
}
