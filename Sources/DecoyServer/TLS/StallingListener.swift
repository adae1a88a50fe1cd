import Decoy
import Foundation

/// A listening socket that never accepts, for ``TLSFault/handshakeStall``: the kernel completes
/// each client's TCP handshake and keeps its ClientHello unread, so the TLS handshake stalls until
/// the client gives up, and no thread of the server is held.
final class StallingListener: Sendable {
    private let socket: Int32
    let port: UInt16

    init(host: String, port: UInt16, backlog: Int) throws(DecoyError) {
        let address = try ListenAddress(host: host, port: port)
        let socket = Foundation.socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw .cannotListen(host: host, port: port) }
        var reuse: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        let length = socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        guard address.withPointer({ bind(socket, $0, length) }) == 0, listen(socket, Int32(backlog)) == 0 else {
            close(socket)
            throw .cannotListen(host: host, port: port)
        }
        var bound = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &boundLength) }
        }
        // The port sits at the same place in both families' addresses.
        self.port = withUnsafeBytes(of: bound) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
        self.socket = socket
    }

    /// Closes the socket: waiting clients see their connections reset.
    func stop() {
        close(socket)
    }
}
