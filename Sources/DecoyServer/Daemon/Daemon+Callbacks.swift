import Atomics
import CMicroHTTPD
import Foundation
import HTTPTypes

// libmicrohttpd's C callbacks, translated into events of the daemon and of each exchange's
// machine. Every reference that crosses into C (the daemon, each exchange, each connection's head
// deadline) is taken and given back here, and only here: the one place to read for the server's
// lifetimes (see Daemon's Lifetime and Exchange).

extension Daemon {
    /// libmicrohttpd's own reference to the daemon, the context of every callback: taken before
    /// `MHD_start_daemon`, and released once `MHD_stop_daemon` has joined its threads, or at once
    /// when the daemon did not start.
    struct Context {
        private let reference: Unmanaged<Daemon>

        init(retaining daemon: Daemon) {
            reference = .passRetained(daemon)
        }

        var pointer: UnsafeMutableRawPointer { reference.toOpaque() }

        func release() { reference.release() }
    }

    /// Called with the raw request line's target, before anything else: the exchange starts here,
    /// and libmicrohttpd holds a reference to it until ``requestCompleted``.
    static let requestStarted: decoy_uri_log_callback = { context, uri, connection in
        guard let context, let uri, let connection else { return nil }
        // Borrowed: libmicrohttpd holds a reference to the daemon while it runs (Daemon's Lifetime).
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        // The connection's socket context holds a retained watch from its start to its close,
        // which comes after its last request, so borrowing it here is safe.
        let watch = decoy_connection_context(connection).map {
            Unmanaged<HeadDeadlines.Watch>.fromOpaque($0).takeUnretainedValue()
        }
        let exchange = Exchange(
            target: HeadCheck.originForm(of: String(cString: uri)), connection: connection, watch: watch,
            daemon: daemon)
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    static let handleRequest: MHD_AccessHandlerCallback = {
        context, _, _, method, version, upload, uploadSize, state in
        guard let context, let method, let version, let uploadSize, let exchangePointer = state?.pointee else {
            return .NO
        }
        // Both outlive the call: libmicrohttpd holds a reference to the daemon while it runs, and
        // one to the exchange from requestStarted to requestCompleted.
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeUnretainedValue()
        return daemon.handle(exchange, method: method, version: version, upload: upload, uploadSize: uploadSize)
    }

    static let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let exchangePointer = state.pointee else { return }
        // Balances the retain in requestStarted; cleared so that it is taken once. Called as
        // libmicrohttpd closes the connection, the answer sent, before the socket is closed.
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeRetainedValue()
        state.pointee = nil
        exchange.daemon.perform(exchange.machine.completed(), for: exchange)
        exchange.watch?.awaitHead()
    }

    /// Counts connections and keeps each one's head deadline in its socket context, retained
    /// from its start to its close.
    static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, change in
        guard let context, let connection, let socketContext else { return }
        // Borrowed, as in handleRequest.
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        let started = change == .CONNECTION_NOTIFY_STARTED
        daemon.openConnections.wrappingIncrement(by: started ? 1 : -1, ordering: .relaxed)
        if started, daemon.listener.resetsHandshakes {
            reset(decoy_connection_socket(connection))
        }
        if started {
            let watch = daemon.headDeadlines.watch(socket: decoy_connection_socket(connection))
            socketContext.pointee = Unmanaged.passRetained(watch).toOpaque()
        } else if let pointer = socketContext.pointee {
            // Balances the retain at the start; the context is cleared so it is taken once.
            daemon.headDeadlines.remove(Unmanaged<HeadDeadlines.Watch>.fromOpaque(pointer).takeRetainedValue())
            socketContext.pointee = nil
        }
    }

    /// Makes the close of a connection a reset, by giving it no linger time. A listener that
    /// resets handshakes offers only ciphers no client asks for (``noCommonCipher``), so GnuTLS
    /// fails each handshake once the client's hello is in, and libmicrohttpd closes the
    /// connection without an alert: the client, waiting for the server's hello, meets the reset.
    private static func reset(_ socket: Int32) {
        guard socket >= 0 else { return }
        var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
    }

    /// GnuTLS priorities with no cipher but the null one, which no client offers.
    static let noCommonCipher = "NORMAL:-CIPHER-ALL:+NULL"

    // MARK: WebSockets

    /// Queues the `101` that accepts a WebSocket handshake; libmicrohttpd calls ``upgraded`` once
    /// it is out. `Connection: Upgrade` is libmicrohttpd's to add.
    static func queueUpgrade(accepting accept: String, subprotocol: String?, on exchange: Exchange) -> MHD_Result {
        // Unretained: libmicrohttpd calls the handler while it runs, and holds its own reference to
        // the daemon until then (Daemon's Lifetime).
        let context = Unmanaged.passUnretained(exchange.daemon).toOpaque()
        guard let response = MHD_create_response_for_upgrade(upgraded, context) else { return .NO }
        defer { MHD_destroy_response(response) }
        MHD_add_response_header(response, "Upgrade", "websocket")
        MHD_add_response_header(response, "Sec-WebSocket-Accept", accept)
        if let subprotocol { MHD_add_response_header(response, "Sec-WebSocket-Protocol", subprotocol) }
        return MHD_queue_response(exchange.connection, 101, response)
    }

    /// libmicrohttpd sent the `101`: the socket is the WebSocket's, and the exchange's machine says
    /// to open its channel.
    private static let upgraded: MHD_UpgradeHandler = { context, _, state, extra, extraSize, socket, handle in
        guard let context, let state, let handle else { return }
        // Both outlive the call: the daemon as in handleRequest, and the exchange, whose reference
        // libmicrohttpd holds until requestCompleted, which comes after.
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(state).takeUnretainedValue()
        let bytes = extra.map { Data(bytes: $0, count: extraSize) } ?? Data()
        exchange.upgradedSocket = (socket, handle, bytes)
        daemon.perform(exchange.machine.upgraded(), for: exchange)
    }

    // MARK: Streamed bodies

    /// Queues `head` on the exchange's connection, with a content reader that reads out its body
    /// (``read(_:into:capacity:)``), `length` bytes announced or, `nil`, chunked.
    static func queueStreamed(_ head: HTTPResponse, length: Int?, on exchange: Exchange) -> MHD_Result {
        // libmicrohttpd holds this reference to the exchange until it frees the response, which it
        // says by calling `releaseReader`; when no response is made, it is released here.
        let context = Unmanaged.passRetained(exchange)
        let size = length.map(UInt64.init) ?? sizeUnknown
        guard
            let pointer = MHD_create_response_from_callback(
                size, 16 * 1024, readBody, context.toOpaque(), releaseReader)
        else {
            context.release()
            return .NO
        }
        defer { MHD_destroy_response(pointer) }
        PreparedResponse.add(head.headerFields, to: pointer)
        return MHD_queue_response(exchange.connection, UInt32(head.status.code), pointer)
    }

    /// `MHD_SIZE_UNKNOWN`, a macro Swift does not import: the body is sent chunked.
    private static let sizeUnknown = UInt64.max

    private static let readBody: MHD_ContentReaderCallback = { context, _, buffer, capacity in
        guard let context, let buffer else { return endWithError }
        // Borrowed: the response holds its own reference until releaseReader.
        let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
        return exchange.daemon.read(exchange, into: buffer, capacity: capacity)
    }

    private static let releaseReader: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<Exchange>.fromOpaque(context).release()
    }
}

extension Exchange {
    /// Reads the method and every header field, repeated ones included.
    func readHead(method rawMethod: UnsafePointer<CChar>) {
        method = Self.method(rawMethod)
        // The request line's method, version, spaces and line end, about.
        headLength = target.utf8.count + 32
        // Room for every field at once, counted first, rather than regrown as they are appended.
        rawHeaderFields.reserveCapacity(Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)))
        // Unretained: libmicrohttpd calls the iterator only before MHD_get_connection_values returns.
        MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, key, value in
                guard let context, let key else { return .YES }
                let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                let field = (name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                // `: ` and the line end, and libmicrohttpd's record of the field.
                exchange.headLength += field.name.utf8.count + field.value.utf8.count + 4 + 64
                exchange.rawHeaderFields.append(field)
                exchange.lastValue = value
                return .YES
            }, Unmanaged.passUnretained(self).toOpaque())
    }
}
