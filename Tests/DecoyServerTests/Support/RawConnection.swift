import DecoyClient
import DecoyTestSupport
import Foundation
import Testing

/// A bare TCP client for sending what no HTTP library would: partial requests, garbage, repeats.
///
/// Reads block, so they run on a dispatch queue: blocking the few threads of Swift's cooperative
/// pool would starve the very tasks the server needs to answer.
final class RawConnection: @unchecked Sendable {
    let socket: Int32
    private let isClosed = Mutex(false)

    init(port: UInt16, host: String = "127.0.0.1", receiveTimeout: Duration = endlessWait) throws {
        socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        var timeout = timeval(tv_sec: Int(receiveTimeout.components.seconds), tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Through close(), which marks it closed: deinit still runs after this init throws, and
        // closing the descriptor a second time there could close one another thread had just
        // opened under the same number, such as a socket of a server under test.
        guard connected == 0 else {
            close()
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close() }

    /// Closes the connection now rather than when it is released; closing twice does nothing.
    func close() {
        guard
            !isClosed.withLock({ closed in
                defer { closed = true }; return closed
            })
        else { return }
        Foundation.close(socket)
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `text` has arrived, the peer closes, or the receive timeout passes.
    func read(until text: String? = nil) async -> String {
        await offThePool { self.blockingRead(until: text) }
    }

    /// Whether the peer closes the connection (end of stream within the receive timeout).
    func isClosedByPeer() async -> Bool {
        await offThePool {
            var byte: UInt8 = 0
            return recv(self.socket, &byte, 1, 0) == 0
        }
    }

    /// Reads until the peer closes or the receive timeout passes, noting when each read returned,
    /// counted from the call, and how many bytes it brought.
    func readArrivals() async -> [(at: Duration, count: Int)] {
        await offThePool {
            let start = ContinuousClock.now
            var arrivals: [(at: Duration, count: Int)] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let count = recv(self.socket, &buffer, buffer.count, 0), count > 0 {
                arrivals.append((ContinuousClock.now - start, count))
            }
            return arrivals
        }
    }

    /// ``read(until:)`` on the calling thread, for a client loop that runs on a thread of its own.
    func blockingRead(until text: String?) -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[..<count]
            if let text, String(decoding: received, as: UTF8.self).contains(text) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}

/// Where the tests that drive curl find it.
let curlPath = "/usr/bin/curl"

/// The trait of a test that drives curl: without it the test is skipped, and says why.
let needsCurl = ConditionTrait.enabled(
    if: FileManager.default.isExecutableFile(atPath: curlPath), "curl is not installed at \(curlPath)")

/// Runs curl and returns what it printed.
func curl(_ arguments: [String]) async throws -> String {
    try await curlRun(arguments).output
}

/// What a run of curl printed, on each stream, and its exit status.
typealias CurlRun = ProgramRun

/// Runs curl, silent but for errors, for at most five seconds.
func curlRun(_ arguments: [String]) async throws -> CurlRun {
    let executable = curlPath
    return try await offThePool { try ProgramRun(executable, ["-sS", "--max-time", "5"] + arguments) }
}

extension RawConnection {
    /// How the peer ended a read to the end, or that it did not within the receive timeout.
    enum Ending: Equatable {
        case closed
        case reset
        case timedOut
    }

    /// Reads until the peer closes or resets the connection, or the receive timeout passes.
    func readToEnd() async -> (text: String, ending: Ending) {
        await offThePool {
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(self.socket, &buffer, buffer.count, 0)
                if count > 0 {
                    received += buffer[..<count]
                    continue
                }
                let ending: Ending = count == 0 ? .closed : errno == ECONNRESET ? .reset : .timedOut
                return (String(decoding: received, as: UTF8.self), ending)
            }
        }
    }
}

/// Whether a socket can bind the IPv6 loopback address here: containers often have none.
let hasIPv6Loopback: Bool = {
    let probe = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    guard probe >= 0 else { return false }
    defer { close(probe) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) { pointer in
        // The pointer is bind's for the call only; sockaddr_in6 is the sockaddr it reads.
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
    }
}()

extension RawConnection {
    /// Reads exactly `count` bytes; fewer when the peer closes or the receive timeout passes first.
    func readBytes(_ count: Int) async -> [UInt8] {
        await offThePool {
            var received = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: count)
            while received.count < count {
                let read = recv(self.socket, &buffer, count - received.count, 0)
                guard read > 0 else { break }
                received += buffer[..<read]
            }
            return received
        }
    }
}
