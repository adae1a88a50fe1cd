import Foundation

/// What RFC 6455 (section 5) says of a frame, and how the server writes one.
enum WebSocketFrame {
    /// A frame's opcode; the others are reserved, and a frame with one fails the connection.
    enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// The largest payload of a control frame.
    static let controlPayloadLimit = 125

    /// One whole frame as the server sends it: final, unmasked (a server never masks, section 5.1).
    static func encode(_ opcode: Opcode, _ payload: some Collection<UInt8>) -> Data {
        var frame = Data()
        frame.reserveCapacity(payload.count + 10)
        frame.append(0x80 | opcode.rawValue)
        switch payload.count {
        case ..<126:
            frame.append(UInt8(payload.count))
        case ...0xFFFF:
            frame.append(126)
            frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        default:
            frame.append(127)
            frame.append(contentsOf: (0..<8).reversed().map { UInt8((UInt64(payload.count) >> ($0 * 8)) & 0xFF) })
        }
        // At once where the bytes lie together (`Data`, arrays), not byte by byte.
        if payload.withContiguousStorageIfAvailable({ frame.append(contentsOf: $0) }) == nil {
            frame.append(contentsOf: payload)
        }
        return frame
    }

    /// A close frame with `code` and `reason`, the reason cut to what fits a control frame
    /// (at a character's end).
    static func close(_ code: WebSocketCloseCode, reason: String = "") -> Data {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var room = controlPayloadLimit - payload.count
        for character in reason {
            let bytes = Array(String(character).utf8)
            guard bytes.count <= room else { break }
            payload += bytes
            room -= bytes.count
        }
        return encode(.close, payload)
    }
}

/// A close frame's status code (RFC 6455 section 7.4).
struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt16

    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The purpose the connection was opened for is fulfilled.
    static let normal = WebSocketCloseCode(rawValue: 1000)
    /// The server is going away (it stops).
    static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// The peer broke the protocol.
    static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// A text message that is not UTF-8.
    static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
    /// A message larger than the server takes.
    static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// The server met a condition it did not expect.
    static let internalError = WebSocketCloseCode(rawValue: 1011)

    /// Whether a peer may send the code in a close frame: 1000–1003 and 1007–1011 of the RFC's own,
    /// and 3000–4999 for libraries and applications; 1004–1006 and 1015 are never sent.
    var maySend: Bool {
        switch rawValue {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }

    var description: String { String(rawValue) }
}
