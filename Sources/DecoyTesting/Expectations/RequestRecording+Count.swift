public import Decoy

extension RequestRecording {
    /// Expects the number of requests matching `route` to satisfy `count`; otherwise records a
    /// test failure here, in XCTest or Swift Testing, that lists the near misses when too few
    /// arrived and the matching requests when too many did.
    ///
    /// ```swift
    /// registry.expect(.post("/users"), count: .once)
    /// ```
    ///
    /// - Returns: the matching requests, oldest first, to look at further.
    @discardableResult
    public func expect(
        _ route: Route, count: CallCount = .atLeast(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> [JournalEntry] {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        guard let pattern = site.pattern(for: route) else { return [] }
        return ReceivedRequests(self).matching(pattern, count: count, site: site) ?? []
    }

    /// Expects no request to match `route`; otherwise records a test failure that lists them.
    public func expectNoRequests(
        to route: Route,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        expect(route, count: .never, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects no request at all; otherwise records a test failure that lists them.
    public func expectNoRequests(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let received = ReceivedRequests(self)
        guard received.total > 0 else { return }
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        site.fail(
            (["Expected no requests, but received \(received.total):"] + ReceivedRequests.list(received.entries)
                + received.closingNotes)
                .joined(separator: "\n"))
    }
}

extension ReceivedRequests {
    /// The requests matching `pattern`, or `nil` after reporting that their number does not satisfy `count`.
    func matching(_ pattern: RequestPattern, count: CallCount, site: CallSite) -> [JournalEntry]? {
        let matching = entries.filter { pattern.matches($0.request) }
        guard !count.accepts(matching.count) else { return matching }
        var lines = ["Expected \(count) matching \(pattern.route), but received \(matching.count)."]
        if count.isExceeded(by: matching.count) {
            lines += ["Matching requests:"] + Self.list(matching)
        } else if entries.isEmpty {
            lines.append("No requests were received.")
        } else {
            let misses = Self.nearMisses(to: pattern, among: entries)
            lines += misses.isEmpty ? ["No other requests were received."] : misses
        }
        site.fail((lines + closingNotes).joined(separator: "\n"))
        return nil
    }
}

extension CallCount {
    /// Whether `count` is more than the expectation allows, as opposed to fewer than it needs.
    fileprivate func isExceeded(by count: Int) -> Bool {
        switch self {
        case .exactly(let limit), .atMost(let limit): count > limit
        case .atLeast: false
        }
    }
}
