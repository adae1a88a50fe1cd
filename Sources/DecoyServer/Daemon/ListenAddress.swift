import Decoy
import Foundation

/// A socket address to bind to, lent to libmicrohttpd while it starts.
///
/// A value, not an allocation: the address lives in `storage`, which `withPointer` lends for
/// the length of one call, so there is nothing to free and nothing to outlive.
struct ListenAddress {
    let isIPv6: Bool
    /// Whether only this machine can connect: 127.0.0.0/8 or ::1.
    let isLoopback: Bool
    /// Large and aligned enough for either family, as the sockets API promises.
    private var storage = sockaddr_storage()

    init(host: String, port: UInt16) throws(DecoyError) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            isIPv6 = false
            isLoopback = UInt32(bigEndian: v4.s_addr) >> 24 == 127
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            Self.store(address, in: &storage)
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            isIPv6 = true
            isLoopback = withUnsafeBytes(of: v6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            Self.store(address, in: &storage)
        } else {
            throw .invalidHost(host)
        }
    }

    /// Copies a family's address into the start of `storage`, where the sockets API reads it.
    private static func store<Address>(_ address: Address, in storage: inout sockaddr_storage) {
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: Address.self) }
    }

    /// Calls `body` with the address, valid until `body` returns. libmicrohttpd reads the address
    /// of `MHD_OPTION_SOCK_ADDR` only inside `MHD_start_daemon`, to bind its socket, and keeps no
    /// pointer to it; the pointer is into a copy of `storage` that lives for this call.
    func withPointer<Result>(_ body: (UnsafePointer<sockaddr>) throws -> Result) rethrows -> Result {
        var storage = storage
        // `sockaddr_storage` is laid out to be read as any `sockaddr`; rebinding for the call is
        // how Swift lends memory as another C type.
        return try withUnsafePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}
