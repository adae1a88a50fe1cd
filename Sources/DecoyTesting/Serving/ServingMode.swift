/// The ways a test can reach its stubs. The same stubs give the same answers in all of them, so a
/// test written once can run in each: in-process for speed, over a socket for the real thing.
///
/// ```swift
/// @Test(arguments: ServingMode.allCases)
/// func loadsAUser(_ mode: ServingMode) async throws { … }
/// ```
///
/// The server mode exists where `DecoyServer` builds (macOS and Linux, with libmicrohttpd); on
/// iOS, tvOS, watchOS and visionOS, where no server can link, every mode is in-process.
public enum ServingMode: CaseIterable, Sendable {
    /// `StubTransport`: the engine plugged into the client; no socket is opened.
    case inProcess
    /// `URLSessionTransport` over a session made by `URLSession.stubbed(by:)`, which
    /// `StubURLProtocol` answers in-process: for code that uses `URLSession` itself.
    case urlProtocol
    #if canImport(DecoyServer)
        /// `URLSessionTransport` against a fresh `MockServer` on 127.0.0.1 and an ephemeral port.
        case server
    #endif
}
