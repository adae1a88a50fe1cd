public import Decoy

/// Why a ``MockServer`` could not start.
public enum MockServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 address.
    case invalidHost(String)
    /// The host is reachable from other machines, and the admin API would be open to them.
    case openAdminAPIOffLoopback(host: String)
    /// libmicrohttpd refused to start, most often because the port is taken.
    case cannotListen(host: String, port: UInt16)
    /// A certificate or key file for HTTPS cannot be used: missing, unreadable or not PEM.
    case unusableTLSFile(path: String, reason: String)
    /// libmicrohttpd was built without TLS, so it cannot serve HTTPS.
    case tlsUnsupported
    /// A fault in the certificate (expired, wrong host, unknown authority) needs the generated
    /// certificate authority, to sign the faulty certificate with.
    case certificateFaultNeedsGeneratedIdentity(TLSFault)
    /// Serving neither HTTP nor HTTPS.
    case nothingToServe

    /// The message a developer reads.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            "cannot listen on \"\(host)\": give an IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .cannotListen(let host, let port): "cannot listen on \(host) port \(port): is the port in use?"
        case .unusableTLSFile(let path, let reason): "\(path): cannot be used for HTTPS: \(reason)"
        case .tlsUnsupported:
            "this libmicrohttpd was built without TLS, so it cannot serve HTTPS; install one built with GnuTLS"
        case .certificateFaultNeedsGeneratedIdentity(let fault):
            "the TLS fault \(fault.rawValue) needs the generated certificate authority, not certificate files"
        case .nothingToServe: "serving neither HTTP nor HTTPS: give an HTTPS setting or serve HTTP"
        case .openAdminAPIOffLoopback(let host):
            """
            \(host) is reachable from other machines, which could change the stubs through the admin API: give \
            the admin API a token (.token, --admin-token) or turn it off (.off, --no-admin)
            """
        }
    }
}
