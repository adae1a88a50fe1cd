import Decoy

extension RequestRecording {
    /// Expects every request received to have matched a stub; otherwise records a test failure
    /// that lists those that did not, so that a missing stub or a typo in a path shows itself.
    public func expectNoUnmatchedRequests(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let received = ReceivedRequests(self)
        let unmatched = received.entries.filter { !$0.isMatched }
        guard !unmatched.isEmpty else { return }
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let heading =
            "Expected every request to match a stub, but \(unmatched.count) of \(received.entries.count) did not:"
        site.fail(([heading] + ReceivedRequests.list(unmatched) + received.closingNotes).joined(separator: "\n"))
    }
}
