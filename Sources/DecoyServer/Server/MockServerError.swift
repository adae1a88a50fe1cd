/// Why a ``MockServer`` could not start.
public enum MockServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is not an IPv4 or IPv6 address.
    case invalidHost(String)
    /// The host is reachable from other machines, and the admin API would be open to them.
    case openAdminAPIOffLoopback(host: String)
    /// libmicrohttpd refused to start, most often because the port is taken.
    case cannotListen(host: String, port: UInt16)

    /// The message a developer reads.
    public var description: String {
        switch self {
        case .invalidHost(let host):
            "cannot listen on \"\(host)\": give an IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .cannotListen(let host, let port): "cannot listen on \(host) port \(port): is the port in use?"
        case .openAdminAPIOffLoopback(let host):
            """
            \(host) is reachable from other machines, which could change the stubs through the admin API: give \
            the admin API a token (.token, --admin-token) or turn it off (.off, --no-admin)
            """
        }
    }
}
