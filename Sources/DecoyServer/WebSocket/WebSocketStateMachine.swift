import Decoy
import Foundation

/// One upgraded connection's frames, RFC 6455 section 5 to 7, with no socket: the bytes read from
/// the client go in (``bytesArrived(_:)``), and what the server sends (``send(_:)``,
/// ``close(_:reason:)``), and each event returns the actions to perform, in order, so that a test
/// asserts whole conversations as sequences of actions.
///
/// A client that breaks the protocol is answered with a close frame of the RFC's code and its
/// socket closed at once (section 7.1.7, "fail the WebSocket connection"): an unmasked frame, a
/// reserved bit or opcode, a control frame fragmented or longer than 125 bytes, a continuation
/// with nothing to continue or a new message within one are `1002`; text that is not UTF-8
/// `1007`, found as soon as the bytes cannot be UTF-8, across frames; a message longer than the
/// limit `1009`, before its payload is read.
///
/// Moved by one thread at a time: the channel's, on the loop that reads and writes every upgraded
/// socket of the server (``WebSocketChannel``).
struct WebSocketStateMachine {
    /// Where the close handshake is.
    enum State: Equatable {
        /// Messages go both ways.
        case open
        /// The server sent its close frame and awaits the client's; what else the client sends is
        /// read and dropped (section 5.5.1).
        case closeSent
        /// The socket is to be closed, or is: every event is ignored.
        case closed
    }

    /// What the channel does next, in the order given.
    enum Action: Equatable {
        /// A whole message from the client, for the message stubs.
        case deliver(ChannelMessage)
        /// Write these bytes, one or more whole frames, after those already queued.
        case write(Data)
        /// Close the socket, once what is queued is written: the close handshake is over, or the
        /// client failed the connection.
        case closeSocket
    }

    private(set) var state = State.open
    /// The first close frame sent or received, which says how the connection ended; `nil` while
    /// there is none.
    private(set) var closeFrame: CloseFrame?
    /// The largest message taken, whole or in fragments.
    let messageLimit: Int
    /// Bytes read that do not yet make a whole frame.
    private var buffer: [UInt8] = []
    /// The message whose fragments are coming, if any.
    private var message: Fragments?

    /// A close frame, as the request log and the dashboard tell a channel's end.
    struct CloseFrame: Equatable, Sendable {
        /// Its code; `nil` for a client's close frame without one.
        let code: WebSocketCloseCode?
        let reason: String
        /// Whether the client sent it, rather than the server.
        let isClients: Bool
    }

    private struct Fragments {
        let opcode: WebSocketFrame.Opcode
        var payload: [UInt8] = []
        var utf8 = UTF8Validator()
    }

    init(messageLimit: Int) {
        self.messageLimit = messageLimit
    }

    // MARK: Events

    /// Bytes read from the client's socket (or handed over with the upgrade).
    mutating func bytesArrived(_ bytes: some Collection<UInt8>) -> [Action] {
        guard state != .closed else { return [] }
        buffer.append(contentsOf: bytes)
        var actions: [Action] = []
        var offset = 0
        while state != .closed {
            switch nextFrame(at: offset) {
            case .incomplete:
                buffer.removeFirst(offset)
                return actions
            case .failed(let code, let reason):
                buffer = []
                return actions + fail(code, reason)
            case .frame(let header, let payload, let end):
                offset = end
                actions += take(header, payload)
            }
        }
        buffer = []
        return actions
    }

    /// The server sends `message`; dropped once the server or the client has begun to close.
    mutating func send(_ message: ChannelMessage) -> [Action] {
        guard state == .open else { return [] }
        return switch message {
        case .text(let text): [.write(WebSocketFrame.encode(.text, Array(text.utf8)))]
        case .binary(let data): [.write(WebSocketFrame.encode(.binary, data))]
        }
    }

    /// The server closes the connection with `code`: it sends its close frame and awaits the client's.
    mutating func close(_ code: WebSocketCloseCode, reason: String = "") -> [Action] {
        guard state == .open else { return [] }
        state = .closeSent
        closeFrame = CloseFrame(code: code, reason: reason, isClients: false)
        return [.write(WebSocketFrame.close(code, reason: reason))]
    }

    /// The server breaks the connection as `fault` says: dropped, the socket closed with no close
    /// frame; or failed with `1011`, its close frame then the socket closed, the client's close not
    /// awaited (section 7.1.7).
    mutating func fault(_ fault: ChannelFault) -> [Action] {
        switch fault {
        case .dropConnection:
            guard state != .closed else { return [] }
            state = .closed
            message = nil
            return [.closeSocket]
        case .internalError:
            return state == .closed ? [] : fail(.internalError, "A message stub's fault.")
        }
    }

    /// The client's side of the socket ended (or broke) without a close handshake.
    mutating func peerEnded() -> [Action] {
        guard state != .closed else { return [] }
        state = .closed
        return [.closeSocket]
    }

    // MARK: Frames

    private struct Header {
        let isFinal: Bool
        let opcode: WebSocketFrame.Opcode
    }

    private enum Parsed {
        case incomplete
        case failed(WebSocketCloseCode, String)
        case frame(Header, ArraySlice<UInt8>, end: Int)
    }

    /// The frame that starts at `offset` of the buffer, unmasked, once it is all in; a failure as
    /// soon as its first bytes show one, before its payload is waited for.
    private func nextFrame(at offset: Int) -> Parsed {
        let available = buffer.count - offset
        guard available >= 2 else { return .incomplete }
        let first = buffer[offset]
        let second = buffer[offset + 1]
        guard first & 0x70 == 0 else { return .failed(.protocolError, "A reserved bit is set.") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            return .failed(.protocolError, "The opcode \(first & 0x0F) is reserved.")
        }
        guard second & 0x80 != 0 else { return .failed(.protocolError, "A client's frame must be masked.") }
        let isFinal = first & 0x80 != 0
        var length = UInt64(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard available >= 4 else { return .incomplete }
            length = UInt64(buffer[offset + 2]) << 8 | UInt64(buffer[offset + 3])
            headerLength = 4
        } else if length == 127 {
            guard available >= 10 else { return .incomplete }
            length = buffer[(offset + 2)..<(offset + 10)].reduce(0) { $0 << 8 | UInt64($1) }
            headerLength = 10
            guard length >> 63 == 0 else { return .failed(.protocolError, "The payload length's top bit is set.") }
        }
        if opcode.isControl {
            guard isFinal else { return .failed(.protocolError, "A control frame must not be fragmented.") }
            guard length <= WebSocketFrame.controlPayloadLimit else {
                return .failed(.protocolError, "A control frame's payload is longer than 125 bytes.")
            }
        } else if length > UInt64(messageLimit - (message?.payload.count ?? 0)) {
            return .failed(.messageTooBig, "The message is larger than \(messageLimit) bytes.")
        }
        let payloadStart = offset + headerLength + 4
        // The limits above keep `length` small enough for an `Int` once the whole frame is in.
        guard available >= headerLength + 4, UInt64(available - headerLength - 4) >= length else {
            return .incomplete
        }
        let mask = buffer[(offset + headerLength)..<payloadStart]
        var payload = buffer[payloadStart..<(payloadStart + Int(length))]
        for index in payload.indices {
            payload[index] ^= mask[mask.startIndex + (index - payloadStart) % 4]
        }
        return .frame(Header(isFinal: isFinal, opcode: opcode), payload, end: payloadStart + Int(length))
    }

    /// What a whole, unmasked frame does.
    private mutating func take(_ header: Header, _ payload: ArraySlice<UInt8>) -> [Action] {
        switch header.opcode {
        case .ping:
            return state == .open ? [.write(WebSocketFrame.encode(.pong, payload))] : []
        case .pong:
            return []
        case .close:
            return closeArrived(payload)
        case .text, .binary:
            guard message == nil else {
                return fail(.protocolError, "A new message began before the last one's final fragment.")
            }
            message = Fragments(opcode: header.opcode)
            return fragmentArrived(payload, isFinal: header.isFinal)
        case .continuation:
            guard message != nil else { return fail(.protocolError, "A continuation frame continues no message.") }
            return fragmentArrived(payload, isFinal: header.isFinal)
        }
    }

    private mutating func fragmentArrived(_ payload: ArraySlice<UInt8>, isFinal: Bool) -> [Action] {
        guard var fragments = message else { return [] }
        if fragments.opcode == .text {
            guard fragments.utf8.take(payload), !isFinal || fragments.utf8.isComplete else {
                return fail(.invalidPayload, "A text message is not UTF-8.")
            }
        }
        fragments.payload += payload
        guard isFinal else {
            message = fragments
            return []
        }
        message = nil
        // Read and dropped while the server's close is on its way (section 5.5.1).
        guard state == .open else { return [] }
        let whole: ChannelMessage =
            fragments.opcode == .text
            ? .text(String(decoding: fragments.payload, as: UTF8.self)) : .binary(Data(fragments.payload))
        return [.deliver(whole)]
    }

    /// The client's close frame: answered with one of the same code when the server has not sent
    /// its own, then the socket is closed, the server closing first as section 7.1.1 wants.
    private mutating func closeArrived(_ payload: ArraySlice<UInt8>) -> [Action] {
        var code: WebSocketCloseCode?
        if !payload.isEmpty {
            guard payload.count >= 2 else { return fail(.protocolError, "A close frame's code is one byte long.") }
            let given = WebSocketCloseCode(rawValue: UInt16(payload.first!) << 8 | UInt16(payload.dropFirst().first!))
            guard given.maySend else { return fail(.protocolError, "The close code \(given) may not be sent.") }
            var reason = UTF8Validator()
            guard reason.take(payload.dropFirst(2)), reason.isComplete else {
                return fail(.invalidPayload, "A close frame's reason is not UTF-8.")
            }
            code = given
        }
        if closeFrame == nil {
            let reason = code == nil ? "" : String(decoding: payload.dropFirst(2), as: UTF8.self)
            closeFrame = CloseFrame(code: code, reason: reason, isClients: true)
        }
        let wasOpen = state == .open
        state = .closed
        return (wasOpen ? [.write(WebSocketFrame.close(code ?? .normal))] : []) + [.closeSocket]
    }

    /// Fails the connection (section 7.1.7): the close frame with `code`, then the socket closed
    /// without awaiting the client's.
    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String) -> [Action] {
        let wasOpen = state == .open
        state = .closed
        message = nil
        if wasOpen { closeFrame = CloseFrame(code: code, reason: reason, isClients: false) }
        return (wasOpen ? [.write(WebSocketFrame.close(code, reason: reason))] : []) + [.closeSocket]
    }
}
