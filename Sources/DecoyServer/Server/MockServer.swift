public import Decoy
import DecoyClient
package import DecoyStubFiles
public import Foundation

/// A real HTTP/1.1 server on libmicrohttpd that answers from a stub engine.
///
/// It serves the same stubs, through the same engine, as the in-process servings do, so the
/// client sees the same statuses, header fields, bodies, delays and faults over a real socket.
/// It listens on 127.0.0.1 and a free port unless told otherwise; many can run in one process.
///
/// ```swift
/// let server = MockServer(registry: registry)
/// try server.start()
/// defer { server.stop() }
/// let client = APIClient(baseURL: server.baseURL)
/// ```
public final class MockServer: Sendable {
    /// The engine every request goes through.
    package let engine: StubEngine
    /// Where it listens and its limits.
    public let configuration: Configuration
    /// What the admin API's recordings and `decoy record` record with; only a ``StubRegistry``
    /// can be recorded into.
    package let recorder: Recorder?
    /// Its WebSockets, served with the message stubs of a ``StubRegistry`` (none for another provider).
    let webSockets: WebSocketChannels

    private let state = Mutex<State>(State())

    private struct State {
        /// The HTTP daemon, the HTTPS one, or both.
        var daemons: [Daemon] = []
        var stalling: StallingListener?
        var port: UInt16 = 0
        var httpsPort: UInt16 = 0
        var certificateAuthorityPEM: String?
        var waiters: [CheckedContinuation<Void, Never>] = []

        var isRunning: Bool { !daemons.isEmpty || stalling != nil }
    }

    /// Creates a server for `registry`'s stubs, recording into its journal.
    public convenience init(registry: StubRegistry, configuration: Configuration = Configuration()) {
        self.init(engine: registry.engine, configuration: configuration)
    }

    /// Creates a server for any provider, with a journal of its own.
    public convenience init(provider: some StubProvider, configuration: Configuration = Configuration()) {
        self.init(engine: StubEngine(provider: provider), configuration: configuration)
    }

    /// Creates a server for `engine`.
    package init(engine: StubEngine, configuration: Configuration = Configuration()) {
        var engine = engine
        // Webhooks go out from this server's stubs, so their failures belong in its log.
        if let logger = configuration.logger { engine.webhookSender.logger = logger }
        engine.webhookSender.startTask = { ServingExecutor.task($0) }
        // No connection is held for ever: the engine holds a timeout for the server's limit.
        engine.timeoutHold = min(engine.timeoutHold, configuration.faultTimeoutHold)
        let registry = engine.provider as? StubRegistry
        let webSockets = WebSocketChannels(
            store: registry?.messageStubs ?? MessageStubStore(), mappingRoute: { registry?.mapping(id: $0)?.route },
            messageLimit: configuration.maxWebSocketMessageSize, random: engine.random, clock: engine.clock)
        // Message stubs set off by HTTP traffic hear of this server's answers only, not in-process ones.
        engine.answerObserver = { webSockets.answered($0, by: $1) }
        self.engine = engine
        self.configuration = configuration
        recorder = (engine.provider as? any RecordingStore).map(Recorder.init(registry:))
        self.webSockets = webSockets
    }

    deinit { stop() }

    /// Starts listening, on HTTP and HTTPS as configured; does nothing when already started.
    /// A certificate file that cannot be used is an error naming it, thrown before any port opens.
    public func start() throws(DecoyError) {
        try state.withLock { (state) throws(DecoyError) in
            guard !state.isRunning else { return }
            guard configuration.servesHTTP || configuration.tls != nil else { throw .nothingToServe }
            let https = try configuration.tls.map { (tls) throws(DecoyError) in try HTTPSSetup(tls) }
            webSockets.reopen()
            var started: [Daemon] = []
            do throws(DecoyError) {
                if configuration.servesHTTP {
                    started.append(
                        try Daemon(
                            engine: engine, configuration: configuration, recorder: recorder,
                            listener: .http(port: configuration.port), webSockets: webSockets))
                    state.port = started[0].port
                }
                if let https, let tls = configuration.tls {
                    if let listener = https.listener(port: tls.port) {
                        let daemon = try Daemon(
                            engine: engine, configuration: configuration, recorder: recorder, listener: listener,
                            webSockets: webSockets)
                        started.append(daemon)
                        state.httpsPort = daemon.port
                    } else {
                        let stalling = try StallingListener(
                            host: configuration.host, port: tls.port, backlog: configuration.listenBacklog)
                        state.stalling = stalling
                        state.httpsPort = stalling.port
                    }
                    state.certificateAuthorityPEM = https.authority?.certificatePEM
                }
            } catch {
                for daemon in started { daemon.stop() }
                throw error
            }
            state.daemons = started
        }
    }

    /// Stops listening: held connections are closed, answers in flight finish. Safe to call more than once.
    public func stop() {
        let (daemons, stalling, waiters) = state.withLock { state in
            defer { state.daemons = []; state.stalling = nil; state.waiters = [] }
            return (state.daemons, state.stalling, state.waiters)
        }
        for daemon in daemons { daemon.stop() }
        stalling?.stop()
        for waiter in waiters { waiter.resume() }
    }

    /// Starts if needed, then returns once the server is stopped.
    public func run() async throws(DecoyError) {
        try start()
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                guard state.isRunning else { return true }
                state.waiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
        }
    }

    /// Whether it is listening.
    public var isRunning: Bool { state.withLock { $0.isRunning } }

    /// The port it listens on for HTTP, once started (the one chosen when the configuration asked for 0).
    public var port: UInt16 { state.withLock { $0.port } }

    /// `http://host:port`, the URL to give a client.
    public var baseURL: URL {
        URL(string: Self.baseURL(scheme: "http", host: configuration.host, port: port))!
    }

    /// The port it listens on for HTTPS, once started with ``Configuration-swift.struct/tls``.
    public var httpsPort: UInt16 { state.withLock { $0.httpsPort } }

    /// `https://host:port`, the URL to give a client for HTTPS.
    public var httpsBaseURL: URL {
        URL(string: Self.baseURL(scheme: "https", host: configuration.host, port: httpsPort))!
    }

    /// The certificate authority a client trusts to reach the HTTPS port, PEM, once started with a
    /// generated identity; `decoy serve --tls-ca-out` writes it, `curl --cacert` and
    /// `URLSession.trusting(certificateAuthority:)` of DecoyTesting read it.
    public var certificateAuthorityPEM: String? { state.withLock { $0.certificateAuthorityPEM } }

    static func baseURL(scheme: String, host: String, port: UInt16) -> String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Connections held open while their answer is awaited.
    package var heldConnectionCount: Int { state.withLock { $0.daemons.reduce(0) { $0 + $1.suspended.count } } }
}
