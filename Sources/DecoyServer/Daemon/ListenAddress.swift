import Foundation

/// A socket address to bind to, lent to libmicrohttpd while it starts.
final class ListenAddress {
    let isIPv6: Bool
    /// Whether only this machine can connect: 127.0.0.0/8 or ::1.
    let isLoopback: Bool
    private let storage: UnsafeMutableRawPointer

    init(host: String, port: UInt16) throws(MockServerError) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            isIPv6 = false
            isLoopback = UInt32(bigEndian: v4.s_addr) >> 24 == 127
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            storage = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in>.size, alignment: 8)
            storage.storeBytes(of: address, as: sockaddr_in.self)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            isIPv6 = true
            isLoopback = withUnsafeBytes(of: v6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            storage = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<sockaddr_in6>.size, alignment: 8)
            storage.storeBytes(of: address, as: sockaddr_in6.self)
        } else {
            throw .invalidHost(host)
        }
    }

    /// Calls `body` with the address, valid until `body` returns. libmicrohttpd reads the address
    /// of `MHD_OPTION_SOCK_ADDR` only inside `MHD_start_daemon`, to bind its socket, and keeps no
    /// pointer to it; `self`, which owns the storage, lives until `body` returns.
    func withPointer<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(UnsafePointer(storage.assumingMemoryBound(to: sockaddr.self))) }
    }

    deinit { storage.deallocate() }
}
