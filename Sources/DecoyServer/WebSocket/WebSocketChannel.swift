import CMicroHTTPD
import Decoy
import Foundation

/// One upgraded socket: its frames (``WebSocketStateMachine``), what waits to be written, and the
/// dispatch sources that say when it can be read and written.
///
/// `@unchecked Sendable`: everything but ``summary`` is touched only on the channels' queue
/// (``WebSocketChannels/queue``), where the sources' handlers run.
final class WebSocketChannel: @unchecked Sendable {
    let summary: MessageJournal.ChannelSummary
    private let socket: Int32
    /// libmicrohttpd's handle of the upgraded connection, which closes the socket.
    private let handle: OpaquePointer
    /// Unowned: the channels outlive every channel, which they hold until its socket is given back.
    private unowned let channels: WebSocketChannels
    private var machine: WebSocketStateMachine
    /// Bytes of whole frames not yet all taken by the socket: those from ``sent`` on.
    private var pending = Data()
    /// How much of ``pending`` the socket took; dropped from its front only once it is half of it,
    /// so that a slow socket's partial writes do not move what waits each time.
    private var sent = 0
    private var reader: (any DispatchSourceRead)?
    /// Watches for room in the socket while ``pending`` waits; `nil` while nothing waits.
    private var writer: (any DispatchSourceWrite)?
    /// Sources not yet through their cancellation: the socket goes back only once none is left,
    /// as a descriptor may not be closed while a source watches it.
    private var sources = 0
    /// Whether the socket is to be closed once ``pending`` is out.
    private var closesAfterWriting = false
    private var isStopped = false
    /// The request log of the daemon that upgraded the connection, which names its close.
    let log: RequestLog?
    /// Messages received from the client and sent to it, for the log and the dashboard.
    var tally = (received: 0, sent: 0)
    /// The close frame that ended the channel, if one did.
    var closeFrame: WebSocketStateMachine.CloseFrame? { machine.closeFrame }

    init(
        summary: MessageJournal.ChannelSummary, socket: Int32, handle: OpaquePointer, channels: WebSocketChannels,
        log: RequestLog?
    ) {
        self.summary = summary
        self.log = log
        self.socket = socket
        self.handle = handle
        self.channels = channels
        machine = WebSocketStateMachine(messageLimit: channels.messageLimit)
    }

    /// Starts reading, after the bytes libmicrohttpd read past the handshake.
    func start(with extra: Data) {
        let reader = DispatchSource.makeReadSource(fileDescriptor: socket, queue: channels.queue)
        reader.setEventHandler { [self] in read() }
        reader.setCancelHandler { [self] in sourceCancelled() }
        self.reader = reader
        sources += 1
        reader.resume()
        if !extra.isEmpty { perform(machine.bytesArrived(extra)) }
    }

    /// Sends `message`, journaled as sent by the stub of `stubID` (`nil`: the admin API).
    func send(_ message: ChannelMessage, by stubID: String?) {
        // A stub's paced script may outlive the socket.
        guard !isStopped else { return }
        let actions = machine.send(message)
        guard !actions.isEmpty else { return }
        channels.note(.init(kind: .sent, channel: summary, message: message, stubID: stubID), on: self)
        perform(actions)
    }

    /// Does what a message stub's close or fault says; messages sent before go out first.
    func act(_ kind: MessageAction.Kind) {
        switch kind {
        case .send: break
        case .close(let code, let reason):
            perform(machine.close(WebSocketCloseCode(rawValue: UInt16(code)), reason: reason))
        case .fault(let fault): perform(machine.fault(fault))
        }
    }

    /// Closes the channel as the server stops: its close frame if the socket takes it at once,
    /// then the socket, without awaiting the client's close.
    func stop() {
        perform(machine.close(.goingAway))
        finish()
    }

    private func read() {
        let buffer = channels.readBuffer
        while !isStopped {
            let count = buffer.bytes.withUnsafeMutableBytes {
                recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                perform(machine.bytesArrived(buffer.bytes[..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                perform(machine.peerEnded())
                return
            }
        }
    }

    private func perform(_ actions: [WebSocketStateMachine.Action]) {
        for action in actions where !isStopped {
            switch action {
            case .deliver(let message):
                channels.received(message, on: self)
            case .write(let bytes):
                if sent > 0, sent >= pending.count / 2 {
                    pending.removeFirst(sent)
                    sent = 0
                }
                pending.append(bytes)
                guard pending.count - sent <= channels.pendingLimit else {
                    // A client that does not read: dropped rather than buffered without bound.
                    finish()
                    return
                }
                flush()
            case .closeSocket:
                closesAfterWriting = true
                if sent == pending.count { finish() }
            }
        }
    }

    /// Writes what the socket takes of ``pending`` now; the rest waits for the write source.
    private func flush() {
        while sent < pending.count, !isStopped {
            let written = pending.withUnsafeBytes {
                Foundation.send(socket, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if written > 0 {
                sent += written
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                awaitRoom()
                return
            } else {
                finish()
                return
            }
        }
        guard !isStopped else { return }
        (pending, sent) = (Data(), 0)
        writer?.cancel()
        writer = nil
        if closesAfterWriting { finish() }
    }

    private func awaitRoom() {
        guard writer == nil else { return }
        let writer = DispatchSource.makeWriteSource(fileDescriptor: socket, queue: channels.queue)
        writer.setEventHandler { [self] in flush() }
        writer.setCancelHandler { [self] in sourceCancelled() }
        self.writer = writer
        sources += 1
        writer.resume()
    }

    /// Stops watching the socket, and gives it back to libmicrohttpd once the sources are cancelled.
    private func finish() {
        guard !isStopped else { return }
        isStopped = true
        channels.closed(self)
        reader?.cancel()
        writer?.cancel()
        (reader, writer) = (nil, nil)
        if sources == 0 { giveBack() }
    }

    private func sourceCancelled() {
        sources -= 1
        if sources == 0, isStopped { giveBack() }
    }

    private func giveBack() {
        // libmicrohttpd closes the socket (the upgraded connection's, or its TLS pair's end).
        _ = decoy_upgrade_close(handle)
        channels.gaveBack(self)
    }
}
