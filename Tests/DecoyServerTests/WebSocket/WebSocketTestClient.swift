import DecoyTestSupport
import Foundation

@testable import DecoyServer

/// A WebSocket client over a bare socket, for sending what no library would: unmasked frames,
/// invalid UTF-8, reserved bits. Its frames are masked as RFC 6455 wants unless told otherwise.
struct WebSocketTestClient {
    let connection: RawConnection
    /// The server's answer to the handshake, its head.
    let head: String

    /// Connects to `server` and returns once the server has taken the socket: libmicrohttpd hands
    /// it over just after the `101` is out, so a push right after the client sees the `101` could
    /// otherwise find no socket yet.
    static func open(to server: MockServer, target: String, fields: String = "") async throws -> WebSocketTestClient {
        let before = server.openWebSocketCount
        let client = try await open(port: server.port, target: target, fields: fields)
        let deadline = ContinuousClock.now + .seconds(5)
        while server.openWebSocketCount <= before, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        return client
    }

    /// Connects and sends the handshake of RFC 6455's example (section 1.3) for `target`.
    static func open(port: UInt16, target: String, fields: String = "") async throws -> WebSocketTestClient {
        let connection = try RawConnection(port: port, receiveTimeout: .seconds(5))
        connection.send(
            """
            GET \(target) HTTP/1.1\r
            Host: 127.0.0.1\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            \(fields)\r

            """)
        return WebSocketTestClient(connection: connection, head: await head(of: connection))
    }

    /// The answer's head, read a byte at a time: a frame the server sends as the socket opens must
    /// not be read, and lost, with it.
    private static func head(of connection: RawConnection) async -> String {
        await offThePool {
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), recv(connection.socket, &byte, 1, 0) == 1 {
                head.append(byte)
            }
            return String(decoding: head, as: UTF8.self)
        }
    }

    /// Makes a plain HTTP request of `server` and returns the head of its response, once it is in.
    @discardableResult
    static func http(_ method: String, _ target: String, body: String = "", to server: MockServer) async throws
        -> String
    {
        let connection = try RawConnection(port: server.port, receiveTimeout: .seconds(5))
        connection.send("\(method) \(target) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return await connection.read(until: "\r\n\r\n")
    }

    func send(_ bytes: [UInt8]) { connection.send(bytes) }

    func send(text: String) { send(WebSocketStateMachineTests.client(.text, text)) }

    /// The server's next frame, its opcode and payload; `nil` when the connection ends first.
    func nextFrame() async -> (opcode: UInt8, payload: [UInt8])? {
        let start = await connection.readBytes(2)
        guard start.count == 2 else { return nil }
        var length = Int(start[1] & 0x7F)
        if length == 126 {
            let extended = await connection.readBytes(2)
            length = Int(extended[0]) << 8 | Int(extended[1])
        } else if length == 127 {
            length = (await connection.readBytes(8)).reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = await connection.readBytes(length)
        return (start[0] & 0x0F, payload)
    }

    /// The next text message.
    func nextText() async -> String? {
        guard let frame = await nextFrame(), frame.opcode == 1 else { return nil }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    /// The code of the server's close frame, when the next frame is one.
    func closeCode() async -> Int? {
        guard let frame = await nextFrame(), frame.opcode == 8, frame.payload.count >= 2 else { return nil }
        return Int(frame.payload[0]) << 8 | Int(frame.payload[1])
    }
}
