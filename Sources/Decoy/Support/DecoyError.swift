public import Foundation

/// Why Decoy refused what it was given, or what a verification found: one error for every module
/// (the engine, stub files, OpenAPI documents, a remote server, the mock server), each case naming
/// what was refused and why, so that a test catches `DecoyError` and reads the case it expects.
public enum DecoyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A route that cannot be registered: its path as given, and what is wrong with it.
    case invalidRoute(path: String, reason: String)
    /// A response template that cannot be parsed, refused when its stub is made: the line and
    /// column from 1 (the column counted in characters), the helper when the problem is one
    /// helper's, and what is wrong.
    case invalidTemplate(line: Int, column: Int, helper: String? = nil, reason: String)
    /// An event stream that would be empty or unbounded, and why.
    case invalidEventStream(reason: String)
    /// A stub or route that stub-file JSON cannot hold, so it cannot be sent to a server in
    /// another process: the part with where it sits (`ClosureStub`, or
    /// `FailingStub › otherwise › ClosureStub` for one inside another), and why.
    case cannotBeSent(stub: String, reason: String)
    /// A verification that failed: the route, the count expected, how many matching requests
    /// the journal holds, and the requests it holds, oldest first, each as `7. GET /users → 200`.
    case verificationFailed(route: Route, expected: CallCount, actual: Int, received: [String])
    /// `URLSession.shared` is already intercepted by another test.
    case sharedSessionIntercepted
    /// Stub files, or a stub-file document sent to the admin API, that were not taken: every
    /// error found, by file, then by place in the file (loading stops at nothing, so one run
    /// shows every problem).
    case invalidStubFiles([StubFileDiagnostic])
    /// An OpenAPI document that cannot be used: the document as given when it was read (its file
    /// name, or the name passed with its data), where in it (a JSON pointer, a line and column,
    /// or `nil` for the whole document), and what is wrong.
    case invalidOpenAPIDocument(source: String, place: String?, reason: String)
    /// A server's refusal of an admin request from `RemoteDecoy`: the request (`POST
    /// /__admin/mappings`), the status answered, and each problem the server named, the JSON
    /// pointer of its field and `: ` before its title when it names one; one holding the body as
    /// it came when it was not WireMock's error shape.
    case refusedByServer(request: String, status: Int, problems: [String])
    /// An admin request from `RemoteDecoy` that got no answer: the request (`GET /__admin/requests`)
    /// and why, the transport's `URLError`: no server listening (`.cannotConnectToHost`), the
    /// connection lost, a timeout, or a base URL that makes no admin URL (`.badURL`).
    case serverUnreachable(request: String, cause: URLError)
    /// An admin request from `RemoteDecoy` whose answer it cannot read, as from a server that is
    /// not Decoy's nor WireMock's: the request, and what is wrong with the answer.
    case unreadableServerAnswer(request: String, reason: String)
    /// A mock server's host that is not an IPv4 or IPv6 address.
    case invalidHost(String)
    /// A mock server's host reachable from other machines, with the admin API open to them.
    case openAdminAPIOffLoopback(host: String)
    /// libmicrohttpd refused to start, most often because the port is taken.
    case cannotListen(host: String, port: UInt16)
    /// A certificate or key file for HTTPS that cannot be used: missing, unreadable or not PEM.
    case unusableTLSFile(path: String, reason: String)
    /// libmicrohttpd was built without TLS, so it cannot serve HTTPS.
    case tlsUnsupported
    /// A fault in the certificate (expired, wrong host, unknown authority) needs the generated
    /// certificate authority, to sign the faulty certificate with.
    case certificateFaultNeedsGeneratedIdentity(TLSFault)
    /// A mock server set to serve neither HTTP nor HTTPS.
    case nothingToServe
    /// A recording into a stubs folder (a test's, or a HAR file's import) that did not record
    /// everything: each problem names the request or entry and why, such as a request with no
    /// stored answer while only replaying, or an upstream that could not be reached.
    case recordingFailed(folder: String, problems: [String])

    /// The message a developer reads.
    public var description: String {
        switch self {
        case .invalidRoute(let path, let reason): "invalid route path \"\(path)\": \(reason)"
        case .invalidTemplate(let line, let column, _, let reason): "line \(line), column \(column): \(reason)"
        case .invalidEventStream(let reason): reason
        case .cannotBeSent(let stub, let reason): "\(stub) cannot be sent to a server: \(reason)"
        case .verificationFailed(let route, let expected, let actual, let received):
            Self.verificationMessage(route: route, expected: expected, actual: actual, received: received)
        case .sharedSessionIntercepted:
            """
            URLSession.shared is already intercepted by another test: tests that intercept it cannot run in parallel; \
            mark their suite .serialized
            """
        case .invalidStubFiles(let errors):
            ([errors.count == 1 ? "The stubs folder has an error:" : "The stubs folder has \(errors.count) errors:"]
                + errors.map(\.description)).joined(separator: "\n")
        case .invalidOpenAPIDocument(let source, let place?, let reason): "\(source), at \(place): \(reason)"
        case .invalidOpenAPIDocument(let source, nil, let reason): "\(source): \(reason)"
        case .refusedByServer(let request, let status, let problems):
            (["\(request) was refused with \(status):"] + problems.map { "  " + $0 }).joined(separator: "\n")
        case .serverUnreachable(let request, let cause):
            "\(request) got no answer: \(cause.localizedDescription) (URLError \(cause.code.rawValue))"
        case .unreadableServerAnswer(let request, let reason): "\(request) got an answer Decoy cannot read: \(reason)"
        case .invalidHost(let host):
            "cannot listen on \"\(host)\": give an IPv4 or IPv6 address such as 127.0.0.1 or ::1"
        case .cannotListen(let host, let port): "cannot listen on \(host) port \(port): is the port in use?"
        case .unusableTLSFile(let path, let reason): "\(path): cannot be used for HTTPS: \(reason)"
        case .tlsUnsupported:
            "this libmicrohttpd was built without TLS, so it cannot serve HTTPS; install one built with GnuTLS"
        case .certificateFaultNeedsGeneratedIdentity(let fault):
            "the TLS fault \(fault.rawValue) needs the generated certificate authority, not certificate files"
        case .recordingFailed(let folder, let problems):
            (["Recording into \(folder) failed:"] + problems.map { "  " + $0 }).joined(separator: "\n")
        case .nothingToServe: "serving neither HTTP nor HTTPS: give an HTTPS setting or serve HTTP"
        case .openAdminAPIOffLoopback(let host):
            """
            \(host) is reachable from other machines, which could change the stubs through the admin API: give \
            the admin API a token (.token, --admin-token) or turn it off (.off, --no-admin)
            """
        }
    }

    /// The stub-file errors of ``invalidStubFiles(_:)``; none for any other case.
    package var stubFileErrors: [StubFileDiagnostic] {
        if case .invalidStubFiles(let errors) = self { errors } else { [] }
    }

    /// What is wrong, without where: a route's or template's reason, a stream's, or the whole
    /// message for the others; what a stub file's diagnostic quotes beside its own place.
    package var reason: String {
        switch self {
        case .invalidRoute(_, let reason), .invalidTemplate(_, _, _, let reason), .invalidEventStream(let reason),
            .cannotBeSent(_, let reason), .invalidOpenAPIDocument(_, _, let reason):
            reason
        default: description
        }
    }

    /// The same refusal, its reason said to be `place`'s: `in header Accept: …` for a template of a header.
    package func located(_ place: String) -> DecoyError {
        switch self {
        case .invalidRoute(let path, let reason): .invalidRoute(path: path, reason: "\(place): \(reason)")
        case .invalidTemplate(let line, let column, let helper, let reason):
            .invalidTemplate(line: line, column: column, helper: helper, reason: "\(place): \(reason)")
        case .invalidEventStream(let reason): .invalidEventStream(reason: "\(place): \(reason)")
        case .cannotBeSent(let stub, let reason): .cannotBeSent(stub: stub, reason: "\(place): \(reason)")
        default: self
        }
    }

    /// The same refusal, about a part of `outer`: a stub inside another names its place.
    package func inside(_ outer: String) -> DecoyError {
        guard case .cannotBeSent(let stub, let reason) = self else { return self }
        return .cannotBeSent(stub: "\(outer) › \(stub)", reason: reason)
    }

    private static func verificationMessage(route: Route, expected: CallCount, actual: Int, received: [String])
        -> String
    {
        var lines = ["Expected \(expected) matching \(route), but received \(actual)."]
        if received.isEmpty {
            lines.append("No requests were received.")
        } else {
            let shown = received.suffix(listedLimit)
            lines.append(
                """
                Requests received \
                (\(received.count)\(received.count > shown.count ? ", last \(shown.count) shown" : "")):
                """
            )
            lines += shown.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private static let listedLimit = 20
}
