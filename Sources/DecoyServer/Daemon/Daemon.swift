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
    /// The server's WebSockets, which take this daemon's upgraded connections.
    let webSockets: WebSocketChannels
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
    let openConnections = ManagedAtomic<Int>(0)
    let headDeadlines: HeadDeadlines
    /// The timeout of a connection resumed to be closed (``perform(_:for:method:version:)``).
    private let closingTimeout: UInt32
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
        let context: Context
    }

    init(
        engine: StubEngine, configuration: MockServer.Configuration, recorder: Recorder?, listener: Listener,
        webSockets: WebSocketChannels
    ) throws(DecoyError) {
        self.engine = engine
        self.webSockets = webSockets
        self.configuration = configuration
        self.listener = listener
        let address = try ListenAddress(host: configuration.host, port: listener.port)
        if configuration.adminAccess == .open, !address.isLoopback {
            throw .openAdminAPIOffLoopback(host: configuration.host)
        }
        admin = AdminAPI(
            engine: engine, access: configuration.adminAccess, recorder: recorder, webSockets: webSockets)
        headDeadlines = HeadDeadlines(timeout: configuration.connectionTimeout)
        let timeout = UInt32(max(1, configuration.connectionTimeout.components.seconds))
        closingTimeout = timeout + 1
        suspended = SuspendedExchanges()
        // After the address is known good: the log starts a thread, which only close() ends.
        requestLog = configuration.logger.map(RequestLog.init(logger:))
        listeningPort = ManagedAtomic(listener.port)
        // Turbo skips the shutdown() before close(), without which a reset fault reaches the
        // client as an orderly close instead of a reset.
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_TURBO.rawValue | MHD_ALLOW_UPGRADE.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        if listener.identity != nil { flags |= MHD_USE_TLS.rawValue }
        // libmicrohttpd's own reference (see Lifetime above), released in stop() or just below.
        let context = Context(retaining: self)
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
                                Daemon.connectionChanged, key, certificate, priorities, context.pointer
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
        let context = running.withLock { running -> Context? in
            guard let daemon = running.take() else { return nil }
            suspended.closeAll()
            // libmicrohttpd aborts when stopped with an upgraded connection not closed.
            webSockets.closeAll()
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

    // MARK: Performing the machine's actions

    /// A call of the connection's handler for a request of `method` and `version`, with a piece
    /// of the body or without.
    func handle(
        _ exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>,
        upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        if uploadSize.pointee > 0, let upload {
            let action = exchange.machine.bodyPieceArrived(
                UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
            uploadSize.pointee = 0
            return perform(action, for: exchange)
        }
        return perform(exchange.machine.handlerCalled(), for: exchange, method: method, version: version)
    }

    /// Does on the exchange's connection what its machine says; `method` and `version` are the
    /// request's, given on the handler's calls. A response prepared once per stub response goes
    /// out as it is; a paced body, a `HEAD`'s withheld one and the server's own streamed one are
    /// read out by the content reader as their pieces come (``read(_:into:capacity:)``).
    @discardableResult
    func perform(
        _ action: consuming ExchangeStateMachine.Action, for exchange: Exchange, method: UnsafePointer<CChar>? = nil,
        version: UnsafePointer<CChar>? = nil
    ) -> MHD_Result {
        // Consumed, so that each case takes its payload (a delivery) rather than a copy of it.
        // Pays: scripts/benchmarks templates, "static" under callgrind: 0.64k instructions per request.
        switch consume action {
        case .wait:
            return .YES
        case .readHead:
            guard let method, let version else { preconditionFailure("The head is read on a call of the handler.") }
            return perform(readHead(of: exchange, method: method, version: version), for: exchange)
        case .refuseHead(let refusal):
            return response(refusing: refusal).queue(on: exchange.connection)
        case .refuseBody:
            return tooLarge.queue(on: exchange.connection)
        case .askAdminAPI:
            // Off the server's threads: listing a full journal or reading a body file takes a
            // while, and the stubs' traffic should not wait for it.
            let request = exchange.request
            suspend(exchange) { [admin, baseURL] in .reply(await admin.reply(to: request, baseURL: baseURL)) }
            return .YES
        case .askEngine:
            let headRoom = HeadRoom(limit: configuration.headerMemoryLimit, requestLength: exchange.headLength)
            return perform(
                exchange.machine.prepared(engine.prepare(exchange.request, headRoom: headRoom)), for: exchange)
        case .awaitDelivery(let awaited):
            suspend(exchange) { (try? await awaited.wait()).map { .delivery(Delivered($0)) } ?? .close }
            return .YES
        case .reply(let reply):
            log(reply.response, by: .adminAPI, for: exchange)
            return PreparedResponse.queueOnce(reply.response, on: exchange.connection)
        case .respond(let delivered):
            return queue(delivered.delivery, on: exchange)
        case .stream(let head, let length, of: let delivered):
            if let delivered {
                log(delivered.delivery, for: exchange)
            } else {
                log(StubResponse(status: head.status), by: .adminAPI, for: exchange)
            }
            return Self.queueStreamed(head, length: length, on: exchange)
        case .breakConnection(let delivered, let fault):
            log(delivered.delivery, for: exchange)
            return SocketFault.realise(
                fault, on: exchange.connection, random: engine.random, overTLS: listener.identity != nil)
        case .hold(let delivered, let hold):
            log(delivered.delivery, for: exchange)
            suspend(exchange) {
                try? await delivered.delivery.clock.sleepOnTimer(for: hold)
                return .close
            }
            return .YES
        case .close:
            return .NO
        case .resume(let closing):
            resume(exchange, closing: closing)
            return .YES
        case .drainOnClose(let bytes):
            LingeringClose.start(decoy_connection_socket(exchange.connection), droppingUpTo: bytes)
            return .YES
        case .upgrade(let accept, let subprotocol):
            log(StubResponse(status: .switchingProtocols), by: .webSocket, for: exchange)
            return Self.queueUpgrade(accepting: accept, subprotocol: subprotocol, on: exchange)
        case .openChannel:
            guard let upgraded = exchange.upgradedSocket else { preconditionFailure("Opened with no socket.") }
            webSockets.open(
                socket: upgraded.socket, handle: upgraded.handle, extra: upgraded.extra, request: exchange.request,
                log: requestLog)
            exchange.upgradedSocket = nil
            return .YES
        }
    }

    /// Reads the request head on the handler's first call and tells the machine what it found.
    private func readHead(
        of exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>
    ) -> ExchangeStateMachine.Action {
        exchange.watch?.headArrived()
        exchange.readHead(method: method)
        let action = exchange.machine.headRead(
            method: exchange.method, fields: exchange.rawHeaderFields, isForAdminAPI: admin.handles(exchange.target),
            version: String(cString: version), endsAtAFieldLine: exchange.headEndsAtAFieldLine(method: method),
            contentLength: exchange.contentLength,
            isOverConnectionLimit: openConnections.load(ordering: .relaxed) > configuration.connectionLimit)
        if case .wait = action, requestLog != nil { exchange.started = Nanoseconds.now }
        // A C lookup, so that a request that asks for no upgrade pays for no more.
        if case .wait = action, !admin.handles(exchange.target),
            MHD_lookup_connection_value(exchange.connection, .HEADER_KIND, "Upgrade") != nil,
            let handshake = WebSocketHandshake(
                method: exchange.method, fields: exchange.rawHeaderFields,
                subprotocols: webSockets.store.subprotocols(for: exchange.request))
        {
            return exchange.machine.asksToUpgrade(handshake)
        }
        return action
    }

    /// The server's answer to a refused head.
    private func response(refusing refusal: ExchangeStateMachine.HeadRefusal) -> PreparedResponse {
        switch refusal {
        case .malformed(let status, let reason): PreparedResponse.text(status, reason + "\n")
        case .emptyFieldName: emptyFieldName
        case .bodyTooLarge: tooLarge
        case .overConnectionLimit: overLimit
        }
    }

    /// A call of the content reader of the exchange's streamed body, for at most `capacity` bytes
    /// into `buffer`: the bytes handed out, or libmicrohttpd's word for the body's end.
    func read(_ exchange: Exchange, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        switch exchange.machine.readerCalled(capacity: capacity) {
        case .send(let bytes):
            bytes.withUnsafeBytes {
                UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
            }
            return bytes.count
        case .awaitPiece(let body):
            suspend(exchange) {
                do {
                    return .piece(try await body.next())
                } catch let broken as BrokenBody {
                    return .broken(broken.fault)
                } catch {
                    return .close
                }
            }
            return 0
        case .end:
            return Self.endOfStream
        case .close(let fault):
            if let fault { SocketFault.cutOff(by: fault, on: exchange.connection) }
            return Self.endWithError
        }
    }

    /// Suspends the exchange's connection, its machine already waiting, until `work` tells how to
    /// go on. Called by the handler, or by the content reader of a streamed body.
    private func suspend(
        _ exchange: Exchange, until work: @escaping @Sendable () async -> ExchangeStateMachine.Resumption
    ) {
        MHD_suspend_connection(exchange.connection)
        suspended.add(exchange, until: work)
    }

    /// Resumes a suspended connection; one resumed to be `closing` first gets a timeout unlike
    /// the daemon's, so that its client sees the close at once.
    ///
    /// A content reader that ends its body with an error leaves libmicrohttpd 0.9.75 with the
    /// connection marked closed, which it closes on its next look at it. Under epoll each round
    /// looks first at the connections with a timeout of their own, and at the longest idle one
    /// with the daemon's, then at those with events, where a resumed one is; a connection marked
    /// closed has no events. So with the daemon's timeout the close waited, up to the connection
    /// timeout, whenever another connection of the same thread had been idle longer; with one of
    /// its own, the reader ends the body on the first look and the socket is closed on the
    /// second, in the same round.
    private func resume(_ exchange: Exchange, closing: Bool) {
        if closing { decoy_connection_set_timeout(exchange.connection, closingTimeout) }
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
                answeredBy: source, nanoseconds: Nanoseconds.now - started, drift: response.drift
            ))
    }

    /// `MHD_CONTENT_READER_END_OF_STREAM`: the body is complete.
    private static let endOfStream = -1
    /// `MHD_CONTENT_READER_END_WITH_ERROR`: close the connection, the body cut off.
    static let endWithError = -2
}

/// Calls `body` with `text` as a C string, or with `nil` when there is no text.
private func withOptionalCString<Result>(
    _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
) -> Result {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
