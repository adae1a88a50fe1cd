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
    public let engine: StubEngine
    /// Where it listens and its limits.
    public let configuration: Configuration
    /// What the admin API's recordings and `decoy record` record with; only a ``StubRegistry``
    /// can be recorded into.
    package let recorder: Recorder?

    private let state = Mutex<State>(State())

    private struct State {
        var daemon: Daemon?
        var port: UInt16 = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
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
    public init(engine: StubEngine, configuration: Configuration = Configuration()) {
        var engine = engine
        // Webhooks go out from this server's stubs, so their failures belong in its log.
        if let logger = configuration.logger { engine.webhookSender.logger = logger }
        self.engine = engine
        self.configuration = configuration
        recorder = (engine.provider as? StubRegistry).map(Recorder.init(registry:))
    }

    deinit { stop() }

    /// Starts listening; does nothing when already started.
    public func start() throws(MockServerError) {
        try state.withLock { (state) throws(MockServerError) in
            guard state.daemon == nil else { return }
            let daemon = try Daemon(engine: engine, configuration: configuration, recorder: recorder)
            state.daemon = daemon
            state.port = daemon.port
        }
    }

    /// Stops listening: held connections are closed, answers in flight finish. Safe to call more than once.
    public func stop() {
        let (daemon, waiters) = state.withLock { state in
            defer { state.daemon = nil; state.waiters = [] }
            return (state.daemon, state.waiters)
        }
        daemon?.stop()
        for waiter in waiters { waiter.resume() }
    }

    /// Starts if needed, then returns once the server is stopped.
    public func run() async throws(MockServerError) {
        try start()
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                guard state.daemon != nil else { return true }
                state.waiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
        }
    }

    /// Whether it is listening.
    public var isRunning: Bool { state.withLock { $0.daemon != nil } }

    /// The port it listens on, once started (the one chosen when the configuration asked for 0).
    public var port: UInt16 { state.withLock { $0.port } }

    /// `http://host:port`, the URL to give a client.
    public var baseURL: URL {
        URL(string: Self.baseURL(host: configuration.host, port: port))!
    }

    static func baseURL(host: String, port: UInt16) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Connections held open while their answer is awaited.
    package var heldConnectionCount: Int { state.withLock { $0.daemon?.suspended.count ?? 0 } }
}
