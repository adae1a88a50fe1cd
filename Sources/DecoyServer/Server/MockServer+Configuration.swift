public import Decoy
public import Logging

extension MockServer {
    /// Where and how a ``MockServer`` listens, and the limits it enforces.
    public struct Configuration: Sendable {
        /// The numeric address to listen on: `127.0.0.1` (the default) or `::1` for this machine only;
        /// another, such as `0.0.0.0`, needs an ``adminAccess`` other than ``MockServer/AdminAccess/open``.
        public var host: String
        /// The port; 0 picks a free one, which ``MockServer/port`` then tells.
        public var port: UInt16
        /// Threads that accept connections and answer immediate stubs; delayed and async stubs never hold one.
        public var threadCount: Int
        /// The largest request body accepted; a larger one is answered `413 Content Too Large`.
        public var maxBodySize: Int
        /// The most connections open at once; more are answered `503 Service Unavailable` and
        /// closed, and past an eighth more (at least 16) wait to be accepted.
        public var connectionLimit: Int
        /// Connections waiting to be accepted.
        public var listenBacklog: Int
        /// How long a connection may sit idle, or a client take to send a whole request head
        /// (counted from the connection's start or the previous answer, however slowly the bytes
        /// trickle in), before it is closed.
        public var connectionTimeout: Duration
        /// Memory for one connection's request head and its response's head: a request head that
        /// does not fit is answered `431`, a response head that does not fit beside it `500`.
        /// libmicrohttpd clears it for every request, so more costs throughput.
        public var headerMemoryLimit: Int
        /// How long a ``Fault/timeout`` holds a connection before closing it, so that no client is held
        /// forever; measured on the engine's clock, as every wait of the engine is. The server's
        /// engine holds the fault this long, as it decides every other wait.
        public var faultTimeoutHold: Duration
        /// Receives a line per answered request at `info`, and the unmatched 404's body at `debug`;
        /// `nil` logs nothing. The lines are made and handed over by a thread of the server's
        /// own, a batch at a time, never on the threads that answer; ``MockServer/stop()``
        /// returns once every answered request's line is handed over.
        public var logger: Logger?
        /// Who may use the admin API under `/__admin`; open by default, as the default host is loopback.
        public var adminAccess: AdminAccess
        /// HTTPS on a port of its own, beside ``port`` or instead of it (``servesHTTP``); `nil`, the
        /// default, serves plain HTTP only.
        public var tls: TLS?
        /// Whether plain HTTP is served on ``port``; only a server with ``tls`` may turn it off.
        public var servesHTTP = true
        /// The largest message a WebSocket client may send, whole or in fragments; a larger one
        /// closes its connection with `1009`. 1 MiB unless set.
        public var maxWebSocketMessageSize = 1024 * 1024

        /// Creates a configuration: 127.0.0.1 on a free port, with limits for a test server.
        public init(
            host: String = "127.0.0.1",
            port: UInt16 = 0,
            threadCount: Int = 2,
            maxBodySize: Int = 10 * 1024 * 1024,
            connectionLimit: Int = 16_384,
            listenBacklog: Int = 4_096,
            connectionTimeout: Duration = .seconds(30),
            headerMemoryLimit: Int = 32 * 1024,
            faultTimeoutHold: Duration = .seconds(120),
            logger: Logger? = nil,
            adminAccess: AdminAccess = .open
        ) {
            self.host = host
            self.port = port
            self.threadCount = threadCount
            self.maxBodySize = maxBodySize
            self.connectionLimit = connectionLimit
            self.listenBacklog = listenBacklog
            self.connectionTimeout = connectionTimeout
            self.headerMemoryLimit = headerMemoryLimit
            self.faultTimeoutHold = faultTimeoutHold
            self.logger = logger
            self.adminAccess = adminAccess
        }
    }
}

extension MockServer.Configuration {
    /// HTTPS: where it listens, the certificate it shows, and the fault a client meets, if any.
    ///
    /// The same engine, admin API and journal answer over HTTPS as over HTTP, in HTTP/1.1 over
    /// TLS 1.2 or 1.3 (GnuTLS's defaults).
    public struct TLS: Sendable, Hashable {
        /// The HTTPS port; 0 picks a free one, which ``MockServer/httpsPort`` then tells.
        public var port: UInt16
        /// The certificate the server shows.
        package var identity: Identity
        /// What goes wrong in every handshake on this port, so that a client's pinning and error
        /// paths can be tested; `nil` for none. A handshake comes before any request, so a fault
        /// is the whole port's, never a route's.
        public var fault: TLSFault?

        /// Where the server's certificate comes from.
        package enum Identity: Sendable, Hashable {
            /// A certificate authority made at start-up signs a certificate for `localhost`,
            /// `127.0.0.1` and `::1`; ``MockServer/certificateAuthorityPEM`` is what a client trusts.
            case generated
            /// A certificate chain (leaf first) and its private key, PEM files the user gives; a
            /// file that is missing, unreadable or not PEM is a start-up error naming it.
            case files(certificate: String, key: String)
        }

        /// Creates an HTTPS setting with a generated certificate: a certificate authority made at
        /// start-up signs one for `localhost`, `127.0.0.1` and `::1`, and
        /// ``MockServer/certificateAuthorityPEM`` is what a client trusts.
        public init(port: UInt16 = 0, fault: TLSFault? = nil) {
            self.init(port: port, identity: .generated, fault: fault)
        }

        /// Creates an HTTPS setting with a certificate chain (leaf first) and its private key from
        /// PEM files of your own; a file that is missing, unreadable or not PEM is a start-up error
        /// naming it.
        public init(certificateFile: String, keyFile: String, port: UInt16 = 0, fault: TLSFault? = nil) {
            self.init(port: port, identity: .files(certificate: certificateFile, key: keyFile), fault: fault)
        }

        /// Creates an HTTPS setting showing `identity`.
        package init(port: UInt16, identity: Identity, fault: TLSFault?) {
            self.port = port
            self.identity = identity
            self.fault = fault
        }
    }
}
