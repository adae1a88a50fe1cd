import DecoyClient
import Testing

/// Runs `body`, which must record exactly one failure, with `message`, at the line this is called from.
///
/// Write the assertion under test on the same line as the call, so that a failure reported at
/// the wrong place (inside the library, say) is caught too.
func expectFailure(_ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void)
    rethrows
{
    let recorded = RecordedIssues()
    try withKnownIssue {
        try body()
    } matching: { issue in
        recorded.append(issue)
        return true
    }
    let expected = [RecordedIssue(message: message, fileID: sourceLocation.fileID, line: sourceLocation.line)]
    #expect(recorded.all == expected, sourceLocation: sourceLocation)
}

/// What a test needs to know of an issue: its message and where it points.
struct RecordedIssue: Equatable, CustomStringConvertible {
    let message: String
    let fileID: String?
    let line: Int?

    var description: String { "\(fileID ?? "?"):\(line.map(String.init) ?? "?"): \(message)" }
}

/// Issues collected from a known-issue matcher, which may run on any thread.
final class RecordedIssues: Sendable {
    private let issues = Mutex<[RecordedIssue]>([])

    var all: [RecordedIssue] { issues.withLock { $0 } }

    func append(_ issue: Issue) {
        let recorded = RecordedIssue(
            message: issue.comments.map(\.rawValue).joined(separator: "\n"),
            fileID: issue.sourceLocation?.fileID, line: issue.sourceLocation?.line
        )
        issues.withLock { $0.append(recorded) }
    }
}
