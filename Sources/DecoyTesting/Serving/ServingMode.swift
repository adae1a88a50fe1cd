package import Decoy
package import DecoyClient
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ways a test can reach its stubs. The same stubs give the same answers in all of them, so a
/// test written once can run in each: in-process for speed, over a socket for the real thing.
///
/// ```swift
/// @Test(arguments: ServingMode.inProcessModes)
/// func loadsAUser(_ mode: ServingMode) async throws { … }
/// ```
///
/// `DecoyTesting` has the in-process modes, which link no C library on any platform. The server
/// mode, `ServingMode.server`, and `ServingMode.allCases`, every mode with it, are in
/// `DecoyServerTesting`, where `DecoyServer` builds (macOS and Linux, with libmicrohttpd).
public struct ServingMode: Hashable, Sendable, CustomStringConvertible {
    /// The mode's name, as a test report shows it.
    public let description: String
    /// Serves `registry` to a new client with the configuration given; throws what starting the
    /// serving throws.
    package let serve: @Sendable (StubRegistry, APIClient.Configuration) throws -> ServedClient

    /// A mode named `name` that serves as `serve` does.
    package init(
        _ name: String, serve: @escaping @Sendable (StubRegistry, APIClient.Configuration) throws -> ServedClient
    ) {
        description = name
        self.serve = serve
    }

    /// Two modes are the same when their names are: each mode is made once, as a static member.
    public static func == (lhs: ServingMode, rhs: ServingMode) -> Bool { lhs.description == rhs.description }

    /// Hashes the name, which ``==`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// `StubTransport`: the engine plugged into the client; no socket is opened.
    public static let inProcess = ServingMode("inProcess") { registry, configuration in
        ServedClient(
            client: APIClient(
                baseURL: inProcessBaseURL, configuration: configuration, transport: StubTransport(registry)),
            end: {})
    }

    /// `URLSessionTransport` over a session made by `URLSession.stubbed(by:)`, which Decoy answers
    /// in-process: for code that uses `URLSession` itself.
    public static let urlProtocol = ServingMode("urlProtocol") { registry, configuration in
        let transport = URLSessionTransport(session: .stubbed(by: registry, configuration: .withoutCookies()))
        return ServedClient(
            client: APIClient(baseURL: inProcessBaseURL, configuration: configuration, transport: transport),
            end: { transport.session.finishTasksAndInvalidate() })
    }

    /// The modes that open no socket, ``inProcess`` and ``urlProtocol``: every mode on iOS, tvOS,
    /// watchOS and visionOS.
    public static let inProcessModes: [ServingMode] = [.inProcess, .urlProtocol]
}

extension ServingMode {
    /// Every mode, the server's among them: in `DecoyServerTesting`, which links the server.
    /// Here it only tells a target that imports `DecoyTesting` alone where to find it; with
    /// `DecoyServerTesting` imported, its `allCases` is the one used.
    @available(
        *, unavailable,
        message: """
            ServingMode.allCases, with the server mode, is in DecoyServerTesting: add its product to the test \
            target and import DecoyServerTesting, or use ServingMode.inProcessModes
            """
    )
    public static var allCases: [ServingMode] { inProcessModes }
}

/// A client that a ``ServingMode`` answers, and what ends the serving (stops a server,
/// invalidates a session). The client keeps the serving alive for as long as it is used.
package struct ServedClient: Sendable {
    package let client: APIClient
    package let end: @Sendable () -> Void

    package init(client: APIClient, end: @escaping @Sendable () -> Void) {
        self.client = client
        self.end = end
    }
}

/// Where in-process clients send: a host that never resolves, so that a request sent around the
/// client fails rather than reaching a real server.
private let inProcessBaseURL = URL(string: "http://decoy.invalid")!
