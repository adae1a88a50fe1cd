/// Why a ``MockServer`` could not start.
public enum MockServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host is not a loopback IPv4 or IPv6 address.
    case invalidHost(String)
    /// libmicrohttpd refused to start, most often because the port is taken.
    case cannotListen(host: String, port: UInt16)

    /// The message a developer reads.
    public var description: String {
        switch self {
        case .invalidHost(let host): "cannot listen on \"\(host)\": give an IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .cannotListen(let host, let port): "cannot listen on \(host) port \(port): is the port in use?"
        }
    }
}
