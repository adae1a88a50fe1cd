/// Why Decoy refused what it was given, or what a verification found: one error for the engine,
/// each case naming what was refused and why, so that a test catches `DecoyError` and reads
/// the case it expects.
public enum DecoyError: Error, Sendable, CustomStringConvertible {
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
    /// the journal holds, and the requests it holds, oldest first, for the message.
    case verificationFailed(route: Route, expected: CallCount, actual: Int, received: [JournalEntry])
    /// `URLSession.shared` is already intercepted by another test.
    case sharedSessionIntercepted

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
        }
    }

    /// What is wrong, without where: a route's or template's reason, a stream's, or the whole
    /// message for the others; what a stub file's diagnostic quotes beside its own place.
    package var reason: String {
        switch self {
        case .invalidRoute(_, let reason), .invalidTemplate(_, _, _, let reason), .invalidEventStream(let reason),
            .cannotBeSent(_, let reason):
            reason
        case .verificationFailed, .sharedSessionIntercepted: description
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
        case .verificationFailed, .sharedSessionIntercepted: self
        }
    }

    /// The same refusal, about a part of `outer`: a stub inside another names its place.
    package func inside(_ outer: String) -> DecoyError {
        guard case .cannotBeSent(let stub, let reason) = self else { return self }
        return .cannotBeSent(stub: "\(outer) › \(stub)", reason: reason)
    }

    private static func verificationMessage(route: Route, expected: CallCount, actual: Int, received: [JournalEntry])
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
            lines += shown.map { "  \($0.sequence). \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private static let listedLimit = 20
}
