import Foundation

/// A loopback port that refuses every connection for as long as the value lives: bound, so that no
/// other test's server can take it, and never listening, so that a connection gets a reset at once.
/// A port freed by a stopped server is no such thing: a server of a test running beside this one
/// may be given it.
final class RefusingPort: Sendable {
    private let socket: Int32
    /// `http://127.0.0.1:port`.
    let url: URL

    init() throws {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else {
            Foundation.close(socket)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
    }

    deinit { Foundation.close(socket) }
}
