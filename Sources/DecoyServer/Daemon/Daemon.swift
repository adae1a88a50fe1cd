import Atomics
import CMicroHTTPD
import Decoy
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
/// `@unchecked Sendable`: its stored properties are immutable or thread-safe (`ManagedAtomic`,
/// `SuspendedExchanges` and the request log lock themselves), except `pointer`, `port` and
/// `baseURL`, which are set in `init` before any callback can run and cleared in `stop()`, which
/// `MockServer` calls once, under its own lock, after which libmicrohttpd calls back no more.
///
/// libmicrohttpd holds `self` unretained, as the context of every callback. That is safe because
/// `MockServer` keeps the daemon until `stop()` has returned from `MHD_stop_daemon`, which joins
/// libmicrohttpd's threads; no callback runs after it.
final class Daemon: @unchecked Sendable {
    let engine: StubEngine
    let configuration: MockServer.Configuration
    let suspended = SuspendedExchanges()
    private let admin: AdminAPI
    /// Where answered requests are logged, off the server's threads; `nil` without a logger.
    private let requestLog: RequestLog?
    private(set) var pointer: OpaquePointer?
    private(set) var port: UInt16 = 0
    private(set) var baseURL = ""
    private let tooLarge = PreparedResponse.text(.contentTooLarge, "The request body is larger than this server accepts.\n")
    private let overLimit = PreparedResponse.text(.serviceUnavailable, "The server has as many connections open as it accepts.\n")
    /// Connections open now, counted so that those over the limit get `503` rather than silence.
    private let openConnections = ManagedAtomic<Int>(0)
    private let headDeadlines: HeadDeadlines

    init(engine: StubEngine, configuration: MockServer.Configuration) throws(MockServerError) {
        self.engine = engine
        self.configuration = configuration
        admin = AdminAPI(engine: engine, access: configuration.adminAccess)
        headDeadlines = HeadDeadlines(timeout: configuration.connectionTimeout)
        requestLog = configuration.logger.map(RequestLog.init(logger:))
        let address = try ListenAddress(host: configuration.host, port: configuration.port)
        if configuration.adminAccess == .open, !address.isLoopback { throw .openAdminAPIOffLoopback(host: configuration.host) }
        // Turbo skips the shutdown() before close(), without which a reset fault reaches the
        // client as an orderly close instead of a reset.
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_TURBO.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        pointer = address.withPointer { address in
            decoy_start_daemon(
                flags, address, UInt32(max(1, configuration.threadCount)),
                UInt32(configuration.connectionLimit + Self.overLimitHeadroom(configuration.connectionLimit)), UInt32(configuration.listenBacklog),
                UInt32(max(1, configuration.connectionTimeout.components.seconds)), configuration.headerMemoryLimit,
                Daemon.handleRequest, Daemon.requestCompleted, Daemon.requestStarted, Daemon.connectionChanged,
                Unmanaged.passUnretained(self).toOpaque()
            )
        }
        guard let pointer else {
            requestLog?.close()
            throw .cannotListen(host: configuration.host, port: configuration.port)
        }
        port = decoy_daemon_port(pointer)
        headDeadlines.start()
        baseURL = MockServer.baseURL(host: configuration.host, port: port)
    }

    /// libmicrohttpd at its limit stops accepting and clients wait in silence; it is let accept
    /// this many more, which the handler answers `503` and closes.
    private static func overLimitHeadroom(_ limit: Int) -> Int {
        max(16, limit / 8)
    }

    /// Closes every held connection, then stops the daemon; in-flight immediate answers finish
    /// first, and the request log has handed every line to its logger when this returns.
    func stop() {
        guard let pointer else { return }
        suspended.closeAll()
        headDeadlines.stop()
        MHD_stop_daemon(pointer)
        self.pointer = nil
        // After the daemon's threads are gone, so that nothing answered is left unlogged.
        requestLog?.close()
    }

    // MARK: Handling one request

    private func handle(_ exchange: Exchange, method: UnsafePointer<CChar>, version: UnsafePointer<CChar>, upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>) -> MHD_Result {
        if !exchange.hasHead {
            exchange.watch?.headArrived()
            exchange.readHead(method: method)
            // Answered on the first call, so libmicrohttpd closes the connection after it and
            // reads nothing more from it as a request.
            if let (status, reason) = HeadCheck.problem(method: String(cString: method), version: String(cString: version), fields: exchange.rawHeaderFields) {
                return PreparedResponse.text(status, reason + "\n").queue(on: exchange.connection)
            }
            if requestLog != nil { exchange.started = .now }
            if let length = exchange.contentLength, length > configuration.maxBodySize {
                return tooLarge.queue(on: exchange.connection)
            }
            // Answered on the first call, so libmicrohttpd closes the connection after it.
            if openConnections.load(ordering: .relaxed) > configuration.connectionLimit {
                return overLimit.queue(on: exchange.connection)
            }
            // Answering only on a later call keeps the connection alive.
            return .YES
        }
        if uploadSize.pointee > 0, let upload {
            exchange.receive(upload, count: uploadSize.pointee, limit: configuration.maxBodySize)
            uploadSize.pointee = 0
            return .YES
        }
        if exchange.bodyTooLarge { return tooLarge.queue(on: exchange.connection) }
        if exchange.isClosing { return .NO }
        if let answer = exchange.answer {
            exchange.answer = nil
            return deliver(answer, for: exchange)
        }
        if let reply = exchange.reply {
            exchange.reply = nil
            log(reply, by: .adminAPI, for: exchange)
            return PreparedResponse(reply).queue(on: exchange.connection)
        }
        if admin.handles(exchange.target) {
            // Off the server's threads: listing a full journal or reading a body file takes a
            // while, and the stubs' traffic should not wait for it.
            let request = exchange.request
            suspended.suspend(exchange) { [admin, baseURL] in .reply(admin.answer(request, baseURL: baseURL)) }
            return .YES
        }
        switch engine.prepare(exchange.request) {
        case .ready(let answer):
            return deliver(answer, for: exchange)
        case .pending(let wait):
            suspended.suspend(exchange) { (try? await wait()).map { .answer($0) } ?? .close }
            return .YES
        }
    }

    private func deliver(_ answer: StubAnswer, for exchange: Exchange) -> MHD_Result {
        log(answer, for: exchange)
        let response = answer.response
        guard let fault = response.fault, !fault.isAnsweredOverHTTP else {
            if response.throttle != .none, exchange.method != .head, !response.body.isEmpty {
                return DribbledResponse.queue(response, on: exchange, suspended: suspended, clock: engine.clock)
            }
            return response.cache.value(PreparedResponse.self) { PreparedResponse(response) }.queue(on: exchange.connection)
        }
        if fault == .timeout {
            let hold = configuration.faultTimeoutHold
            suspended.suspend(exchange) {
                try? await Task.sleep(for: hold)
                return .close
            }
            return .YES
        }
        return SocketFault.realise(fault, on: exchange.connection, random: engine.random)
    }

    private func log(_ answer: StubAnswer, for exchange: Exchange) {
        guard requestLog != nil else { return }
        log(answer.response, by: answer.route.map { .route($0) } ?? .unmatched(body: answer.response.body), for: exchange)
    }

    /// Hands the request's outcome to the log, which words and writes it on its own thread.
    private func log(_ response: StubResponse, by source: RequestLog.Source, for exchange: Exchange) {
        guard let requestLog, let started = exchange.started else { return }
        requestLog.append(RequestLog.Record(
            method: exchange.method ?? .get, target: exchange.target, status: response.status.code, fault: response.fault,
            answeredBy: source, elapsed: .now - started
        ))
    }

    // MARK: libmicrohttpd callbacks

    /// Called with the raw request line's target, before anything else: the exchange starts here.
    private static let requestStarted: decoy_uri_log_callback = { _, uri, connection in
        guard let uri, let connection else { return nil }
        // The connection's socket context holds a retained watch from its start to its close,
        // which comes after its last request, so borrowing it here is safe.
        let watch = decoy_connection_context(connection).map { Unmanaged<HeadDeadlines.Watch>.fromOpaque($0).takeUnretainedValue() }
        let exchange = Exchange(target: HeadCheck.originForm(of: String(cString: uri)), connection: connection, watch: watch)
        return Unmanaged.passRetained(exchange).toOpaque()
    }

    private static let handleRequest: MHD_AccessHandlerCallback = { context, _, _, method, version, upload, uploadSize, state in
        guard let context, let method, let version, let uploadSize, let exchangePointer = state?.pointee else { return .NO }
        // Both outlive the call, so neither needs a retain; both threads share the daemon, whose
        // reference count they would otherwise fight over for every request.
        return Unmanaged<Daemon>.fromOpaque(context)._withUnsafeGuaranteedRef { daemon in
            Unmanaged<Exchange>.fromOpaque(exchangePointer)._withUnsafeGuaranteedRef { exchange in
                daemon.handle(exchange, method: method, version: version, upload: upload, uploadSize: uploadSize)
            }
        }
    }

    /// Counts connections and keeps each one's head deadline in its socket context, retained
    /// from its start to its close.
    private static let connectionChanged: MHD_NotifyConnectionCallback = { context, connection, socketContext, change in
        guard let context, let connection, let socketContext else { return }
        Unmanaged<Daemon>.fromOpaque(context)._withUnsafeGuaranteedRef { daemon in
            let started = change == .CONNECTION_NOTIFY_STARTED
            daemon.openConnections.wrappingIncrement(by: started ? 1 : -1, ordering: .relaxed)
            if started {
                let watch = daemon.headDeadlines.watch(socket: decoy_connection_socket(connection))
                socketContext.pointee = Unmanaged.passRetained(watch).toOpaque()
            } else if let pointer = socketContext.pointee {
                // Balances the retain at the start; the context is cleared so it is taken once.
                daemon.headDeadlines.remove(Unmanaged<HeadDeadlines.Watch>.fromOpaque(pointer).takeRetainedValue())
                socketContext.pointee = nil
            }
        }
    }

    private static let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
        guard let state, let exchangePointer = state.pointee else { return }
        let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer)
        exchange.takeUnretainedValue().watch?.awaitHead()
        exchange.release()
        state.pointee = nil
    }
}
