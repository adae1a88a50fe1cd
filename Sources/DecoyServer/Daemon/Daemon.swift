import Atomics
import CMicroHTTPD
import Decoy
import DecoyClient
import DecoyStubFiles
import Foundation
import HTTPTypes
import Logging

/// A running libmicrohttpd daemon and the request handling it calls back into.
///
/// Immediate answers are queued right on the daemon's thread from a response prepared once per
/// stub; anything that waits (a delay, an async stub, a held fault, the next piece of a throttled
/// body) suspends the connection and is resumed from the task that awaited it, so no server
/// thread is ever held.
///
/// `Sendable`, checked: everything it holds is immutable or locks itself. The running
/// libmicrohttpd daemon, a C pointer Swift cannot check, is kept by the lock in `running`.
///
/// **Lifetime**: libmicrohttpd is given `self` as the context of every callback, with a reference
/// of its own, taken before `MHD_start_daemon` and released only after `MHD_stop_daemon` has
/// returned, which joins libmicrohttpd's threads. So the daemon outlives every callback whoever
/// else lets go of it, and a callback may borrow it without a reference of its own.
final class Daemon: Sendable {
    let engine: StubEngine
    let configuration: MockServer.Configuration
    let suspended: SuspendedExchanges
    private let admin: AdminAPI
    /// Where answered requests are logged, off the server's threads; `nil` without a logger.
    private let requestLog: RequestLog?
    /// The libmicrohttpd daemon, from its start until ``stop()``.
    private let running = Mutex<Running?>(nil)
    /// The port it listens on: the configured one until the daemon has started and told its own.
    private let listeningPort: ManagedAtomic<UInt16>
    private let tooLarge = PreparedResponse.text(
        .contentTooLarge, "The request body is larger than this server accepts.\n")
    private let emptyFieldName = PreparedResponse.text(.badRequest, "A header field has an empty name.\n")
    private let overLimit = PreparedResponse.text(
        .serviceUnavailable, "The server has as many connections open as it accepts.\n")
    /// Connections open now, counted so that those over the limit get `503` rather than silence.
    private let openConnections = ManagedAtomic<Int>(0)
    private let headDeadlines: HeadDeadlines
    /// Where it listens and, for HTTPS, how.
    let listener: Listener

    /// One port of a server: plain HTTP, or HTTPS with a certificate and perhaps a fault.
    struct Listener: Sendable {
        let port: UInt16
        /// The certificate and key for HTTPS; `nil` for plain HTTP.
        let identity: TLSIdentity?
        /// Whether every connection is reset as its handshake starts (``TLSFault/handshakeReset``).
        let resetsHandshakes: Bool

        static func http(port: UInt16) -> Listener { Listener(port: port, identity: nil, resetsHandshakes: false) }

        var scheme: String { identity == nil ? "http" : "https" }
    }

    /// A started libmicrohttpd daemon and the reference it holds to its context.
    private struct Running {
        let pointer: OpaquePointer
        let context: Unmanaged<Daemon>
    }

    init(
        engine: StubEngine, configuration: MockServer.Configuration, recorder: Recorder?, listener: Listener
    ) throws(DecoyError) {
        self.engine = engine
        self.configuration = configuration
        self.listener = listener
        let address = try ListenAddress(host: configuration.host, port: listener.port)
        if configuration.adminAccess == .open, !address.isLoopback {
            throw .openAdminAPIOffLoopback(host: configuration.host)
        }
        admin = AdminAPI(engine: engine, access: configuration.adminAccess, recorder: recorder)
        headDeadlines = HeadDeadlines(timeout: configuration.connectionTimeout)
        let timeout = UInt32(max(1, configuration.connectionTimeout.components.seconds))
        suspended = SuspendedExchanges { Daemon.resume($0, closingTimeout: timeout + 1) }
        // After the address is known good: the log starts a thread, which only close() ends.
        requestLog = configuration.logger.map(RequestLog.init(logger:))
        listeningPort = ManagedAtomic(listener.port)
        // Turbo skips the shutdown() before close(), without which a reset fault reaches the
        // client as an orderly close instead of a reset.
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if listener.identity != nil { flags |= MHD_USE_TLS.rawValue }
        // libmicrohttpd's own reference (see Lifetime above), released in stop() or just below.
        let context = Unmanaged.passRetained(self)
        // Started under the lock, which the callbacks never take, so that stop() finds it.
        let port = running.withLock { running -> UInt16? in
            // GnuTLS copies the key and certificate while the daemon starts.
            let started = address.withPointer { address in
                withOptionalCString(listener.identity?.privateKeyPEM) { key in
                    withOptionalCString(listener.identity?.certificateChainPEM) { certificate in
                        withOptionalCString(listener.resetsHandshakes ? Self.noCommonCipher : nil) { priorities in
                            decoy_start_daemon(
                                flags, address, UInt32(max(1, configuration.threadCount)),
                                UInt32(
                                    configuration.connectionLimit
                                        + Self.overLimitHeadroom(configuration.connectionLimit)),
                                UInt32(configuration.listenBacklog),
                                timeout,
                                configuration.headerMemoryLimit,
                                Daemon.handleRequest, Daemon.requestCompleted, Daemon.requestStarted,
                                Daemon.connectionChanged, key, certificate, priorities, context.toOpaque()
                            )
                        }
                    }
                }
            }
            guard let started else { return nil }
            running = Running(pointer: started, context: context)
            return decoy_daemon_port(started)
        }
        guard let port else {
            // MHD_start_daemon failed whole, so no thread of it holds the context.
            context.release()
            requestLog?.close()
            throw .cannotListen(host: configuration.host, port: listener.port)
        }
        listeningPort.store(port, ordering: .relaxed)
        headDeadlines.start()
    }

    /// The port it listens on.
    var port: UInt16 { listeningPort.load(ordering: .relaxed) }

    /// `http://host:port` (or `https`), as the admin API's serve events show absolute URLs.
    private var baseURL: String { MockServer.baseURL(scheme: listener.scheme, host: configuration.host, port: port) }

    /// libmicrohttpd at its limit stops accepting and clients wait in silence; it is let accept
    /// this many more, which the handler answers `503` and closes.
    private static func overLimitHeadroom(_ limit: Int) -> Int {
        max(16, limit / 8)
    }

    /// Closes every held connection, then stops the daemon; in-flight immediate answers finish
    /// first, and the request log has handed every line to its logger when this returns. Safe to
    /// call more than once, from any thread.
    func stop() {
        // Under the lock, so that a second stop() returns only once the first has stopped it.
        let context = running.withLock { running -> Unmanaged<Daemon>? in
            guard let daemon = running.take() else { return nil }
            suspended.closeAll()
            headDeadlines.stop()
            MHD_stop_daemon(daemon.pointer)
            return daemon.context
        }
        guard let context else { return }
        // After the daemon's threads are gone, so that nothing answered is left unlogged.
        requestLog?.close()
        // Its threads are gone, and with them every use of the context (see Lifetime above).
        // Out of the lock: this may be the last reference, and the lock is the daemon's own.
        context.release()
    }

    // MARK: Handling one request

    private func handle(
        _ exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if uploadSize.pointee > 0, let upload {
            exchange.machine.bodyPieceArrived(
                UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee), limit: configuration.maxBodySize)
            uploadSize.pointee = 0
            return .YES
        }
        return perform(exchange.machine.handlerCalled(), for: exchange, method: method, version: version)
    }

    /// Does on the exchange's connection what its machine says, in a call of the handler for a
    /// request of `method` and `version`. A response prepared once per stub response goes out as
    /// it is; a paced body, a `HEAD`'s withheld one and the server's own streamed one are read out
    /// as their pieces come; and a fault is held on the engine's clock for as long as the delivery
    /// says but at most ``MockServer/Configuration/faultTimeoutHold``.
    private func perform(
        _ action: ExchangeStateMachine.Action, for exchange: Exchange, method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>
    ) -> MHD_Result {
        switch action {
        case .readHead:
            return readHead(of: exchange, method: method, version: version)
        case .answer:
            if admin.handles(exchange.target) {
                // Off the server's threads: listing a full journal or reading a body file takes a
                // while, and the stubs' traffic should not wait for it.
                let request = exchange.request
                exchange.machine.answerPending()
                suspend(exchange) { [admin, baseURL] in .answer(admin.reply(to: request, baseURL: baseURL)) }
                return .YES
            }
            let headRoom = HeadRoom(limit: configuration.headerMemoryLimit, requestLength: exchange.headLength)
            switch engine.prepare(exchange.request, headRoom: headRoom) {
            case .ready(let delivery):
                return perform(
                    exchange.machine.answered(with: delivery), for: exchange, method: method, version: version)
            case .pending(let wait):
                exchange.machine.answerPending()
                suspend(exchange) { (try? await wait()).map { .answer(.delivery($0)) } ?? .close }
                return .YES
            }
        case .refuseBody:
            return tooLarge.queue(on: exchange.connection)
        case .reply(let reply):
            log(reply, by: .adminAPI, for: exchange)
            return PreparedResponse.queueOnce(reply, on: exchange.connection)
        case .respond(let delivery):
            return queue(delivery, on: exchange)
        case .stream(let head, let body, of: let delivery?):
            log(delivery, for: exchange)
            return StreamedResponse.queue(head, body: body, on: exchange, daemon: self)
        case .stream(let head, let body, of: nil):
            log(StubResponse(status: head.status), by: .adminAPI, for: exchange)
            return StreamedResponse.queue(head, body: body, on: exchange, daemon: self)
        case .respondWithFault(let delivery):
            log(delivery, for: exchange)
            return PreparedResponse.queueOnce(delivery.response, on: exchange.connection)
        case .breakConnection(let delivery, let fault):
            log(delivery, for: exchange)
            return SocketFault.realise(
                fault, on: exchange.connection, random: engine.random, overTLS: listener.identity != nil)
        case .hold(let delivery, let hold):
            log(delivery, for: exchange)
            let hold = min(hold, configuration.faultTimeoutHold)
            suspend(exchange) {
                try? await delivery.clock.sleep(for: hold)
                return .close
            }
            return .YES
        case .close:
            return .NO
        }
    }

    /// Reads and checks the request head on the handler's first call. A refused head is answered
    /// on that call, so libmicrohttpd closes the connection after it and reads nothing more from
    /// it as a request; an accepted one is answered on a later call, which keeps the connection alive.
    private func readHead(
        of exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>
    ) -> MHD_Result {
        exchange.watch?.headArrived()
        exchange.readHead(method: method)
        if let (status, reason) = HeadCheck.problem(
            method: exchange.method, version: String(cString: version), fields: exchange.rawHeaderFields)
        {
            return refuseHead(of: exchange, with: PreparedResponse.text(status, reason + "\n"))
        }
        if exchange.headEndsAtAFieldLine(method: method) {
            return refuseHead(of: exchange, with: emptyFieldName)
        }
        if requestLog != nil { exchange.started = Nanoseconds.now }
        if let length = exchange.contentLength, length > configuration.maxBodySize {
            // Answered before the body is read, which the client may still be sending.
            exchange.drainsOnClose = min(length, max(configuration.maxBodySize, Self.minimumDrain))
            return refuseHead(of: exchange, with: tooLarge)
        }
        if openConnections.load(ordering: .relaxed) > configuration.connectionLimit {
            return refuseHead(of: exchange, with: overLimit)
        }
        exchange.machine.headAccepted()
        return .YES
    }

    private func refuseHead(of exchange: Exchange, with response: PreparedResponse) -> MHD_Result {
        exchange.machine.headRefused()
        return response.queue(on: exchange.connection)
    }

    /// Suspends the exchange's connection, its machine already waiting, until `work` tells how to
    /// go on. Called by the handler, or by the content reader of a streamed body.
    func suspend(_ exchange: Exchange, until work: @escaping @Sendable () async -> ExchangeStateMachine.Resumption) {
        MHD_suspend_connection(exchange.connection)
        suspended.add(exchange, until: work)
    }

    /// Resumes a suspended connection; one resumed to be closed first gets `closingTimeout`, a
    /// timeout unlike the daemon's, so that its client sees the close at once.
    ///
    /// A content reader that ends its body with an error leaves libmicrohttpd 0.9.75 with the
    /// connection marked closed, which it closes on its next look at it. Under epoll each round
    /// looks first at the connections with a timeout of their own, and at the longest idle one
    /// with the daemon's, then at those with events, where a resumed one is; a connection marked
    /// closed has no events. So with the daemon's timeout the close waited, up to the connection
    /// timeout, whenever another connection of the same thread had been idle longer; with one of
    /// its own, the reader ends the body on the first look and the socket is closed on the
    /// second, in the same round.
    private static func resume(_ exchange: Exchange, closingTimeout: UInt32) {
        if case .closing = exchange.machine.state {
            decoy_connection_set_timeout(exchange.connection, closingTimeout)
        }
        MHD_resume_connection(exchange.connection)
    }

    /// Queues the delivery's response from the libmicrohttpd response prepared once for it, or
    /// made for this answer only when the response is served once.
    private func queue(_ delivery: Delivery, on exchange: Exchange) -> MHD_Result {
        log(delivery, for: exchange)
        let response = delivery.response
        guard let prepared = response.cache?.value(PreparedResponse.self, orMake: { PreparedResponse(response) })
        else { return PreparedResponse.queueOnce(response, on: exchange.connection) }
        return prepared.queue(on: exchange.connection)
    }

    /// Logs the delivery's response.
    private func log(_ delivery: Delivery, for exchange: Exchange) {
        guard requestLog != nil else { return }
        log(
            delivery.response, by: delivery.route.map { .route($0) } ?? .unmatched(body: delivery.response.body),
            for: exchange)
    }

    /// Hands the request's outcome to the log, which words and writes it on its own thread.
    private func log(_ response: StubResponse, by source: RequestLog.Source, for exchange: Exchange) {
        guard let requestLog, let started = exchange.started else { return }
        requestLog.append(
            RequestLog.Record(
                method: exchange.method ?? .get, target: exchange.target, status: response.status.code,
                fault: response.fault,
                answeredBy: source, nanoseconds: Nanoseconds.now - started
            ))
    }

    // MARK: libmicrohttpd callbacks

    /// Called with the raw request line's target, before anything else: the exchange starts here.
    private static let requestStarted: decoy_uri_log_callback = { _, uri, connection in
        guard let uri, let connection else { return nil }
        // The connection's socket context holds a retained watch from its start to its close,
        // which comes after its last request, so borrowing it here is safe.
        let watch = decoy_connection_context(connection).map {
            Unmanaged<HeadDeadlines.Watch>.fromOpaque($0).takeUnretainedValue()
        }
        let exchange = Exchange(
            target: HeadCheck.originForm(of: String(cString: uri)), connection: connection, watch: watch)
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    private static let handleRequest: MHD_AccessHandlerCallback = {
        context, _, _, method, version, upload, uploadSize, state in
        guard let context, let method, let version, let uploadSize, let exchangePointer = state?.pointee else {
            return .NO
        }
        // Both outlive the call: libmicrohttpd holds a reference to the daemon while it runs (see
        // Daemon's Lifetime), and one to the exchange from requestStarted to requestCompleted.
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeUnretainedValue()
        return daemon.handle(exchange, method: method, version: version, upload: upload, uploadSize: uploadSize)
    }

    /// Counts connections and keeps each one's head deadline in its socket context, retained
    /// from its start to its close.
    private static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, change in
        guard let context, let connection, let socketContext else { return }
        // Borrowed, as in handleRequest.
        let daemon = Unmanaged<Daemon>.fromOpaque(context).takeUnretainedValue()
        let started = change == .CONNECTION_NOTIFY_STARTED
        daemon.openConnections.wrappingIncrement(by: started ? 1 : -1, ordering: .relaxed)
        if started, daemon.listener.resetsHandshakes {
            Daemon.reset(decoy_connection_socket(connection))
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
    private static let noCommonCipher = "NORMAL:-CIPHER-ALL:+NULL"

    /// The bytes of an unread body dropped before closing its connection at least, however small
    /// the body limit; up to the limit itself when it is larger.
    static let minimumDrain = 1024 * 1024

    private static let requestCompleted: MHD_RequestCompletedCallback = { _, connection, state, _ in
        guard let state, let exchangePointer = state.pointee else { return }
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer)
        // Called as libmicrohttpd closes the connection, the answer sent, before the socket is closed.
        if let connection, let bytes = exchange.takeUnretainedValue().drainsOnClose {
            LingeringClose.start(decoy_connection_socket(connection), droppingUpTo: bytes)
        }
        exchange.takeUnretainedValue().machine.completed()
        exchange.takeUnretainedValue().watch?.awaitHead()
        exchange.release()
        state.pointee = nil
    }
}

/// Calls `body` with `text` as a C string, or with `nil` when there is no text.
private func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
) -> Result {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
