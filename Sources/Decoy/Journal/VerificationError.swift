/// A verification that failed, with what was expected and what arrived instead.
public struct VerificationError: Error, Sendable, CustomStringConvertible {
    /// The route the verification was about.
    public let route: Route
    /// The count it expected.
    public let expected: CallCount
    /// How many matching requests the journal holds.
    public let actual: Int
    /// The requests the journal holds, oldest first, for the message.
    public let received: [JournalEntry]

    /// The message a test failure shows.
    public var description: String {
        var lines = ["Expected \(expected) matching \(route), but received \(actual)."]
        if received.isEmpty {
            lines.append("No requests were received.")
        } else {
            let shown = received.suffix(Self.listedLimit)
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
