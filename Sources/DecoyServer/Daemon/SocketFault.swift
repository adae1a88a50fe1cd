import CMicroHTTPD
import Decoy
import Foundation

/// Breaks a connection the way a ``Fault`` describes, below HTTP, on the socket itself.
///
/// Each returns `.NO`, which makes libmicrohttpd close the connection without a response.
///
/// Over TLS nothing is written: bytes sent past GnuTLS would reach the client as a broken TLS
/// record, not as the fault. There a reset is the reset alone, and a malformed response or random
/// data is a close without a byte, which the client takes for a bad response as it does the
/// bytes over HTTP.
enum SocketFault {
    static func realise(_ fault: Fault, on connection: OpaquePointer, random: RandomSource, overTLS: Bool)
        -> MHD_Result
    {
        let socket = overTLS ? -1 : decoy_connection_socket(connection)
        switch fault {
        case .connectionReset:
            // libcurl silently retries a request whose reused connection breaks before a byte of
            // the answer; a status line first makes it report the reset instead.
            write(Array("HTTP/1.1 200 OK\r\n".utf8), to: socket)
            // A zero linger time turns close() into a reset.
            cutOff(by: fault, on: connection)
        case .malformedResponse:
            // A response head, then a chunk whose size line is not hexadecimal.
            write(
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nnot-a-chunk-size\r\nlorem ipsum\r\n".utf8),
                to: socket)
        case .randomDataThenClose:
            var noise = (0..<256).map { _ in random.byte() }
            // Never by chance the start of a status line: clients parse those further, and
            // swift-corelibs-foundation crashes on some malformed heads.
            if noise[0] == UInt8(ascii: "H") { noise[0] = 0 }
            write(noise, to: socket)
        case .emptyResponse, .timeout:
            break
        case .transportError, .proxyFailure:
            // No server can make a client raise an arbitrary error; closing is the nearest thing.
            // (A proxy failure is delivered as its response and never comes here.)
            break
        }
        return .NO
    }

    /// Breaks a connection whose body is partly sent, as `fault` says, before libmicrohttpd closes
    /// it: a reset resets it, and any other fault closes it with the body cut off, which a client
    /// reads as the connection lost, since nothing more can be said on a connection mid-body.
    static func cutOff(by fault: Fault, on connection: OpaquePointer) {
        guard fault == .connectionReset else { return }
        var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
        setsockopt(
            decoy_connection_socket(connection), SOL_SOCKET, SO_LINGER, &linger,
            socklen_t(MemoryLayout<Foundation.linger>.size))
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) {
        guard socket >= 0 else { return }
        _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
