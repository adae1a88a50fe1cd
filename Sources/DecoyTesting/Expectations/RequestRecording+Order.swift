public import Decoy

extension RequestRecording {
    /// Expects requests matching `routes` to have arrived in this order, other requests allowed
    /// before, between and after; otherwise records a test failure that says which came and which
    /// did not, with the near misses of the first missing one.
    ///
    /// ```swift
    /// registry.expectOrder([.post("/login"), .get("/me")])
    /// ```
    public func expectOrder(
        _ routes: [Route],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let patterns = routes.compactMap(site.pattern(for:))
        guard patterns.count == routes.count else { return }
        let received = ReceivedRequests(self)
        var found: [JournalEntry] = []
        var rest = received.entries[...]
        // Taking the earliest match each time finds the order whenever it exists.
        for pattern in patterns {
            guard let index = rest.firstIndex(where: { pattern.matches($0.request) }) else {
                site.fail(received.orderFailure(routes: routes, found: found, missing: pattern, after: rest))
                return
            }
            found.append(rest[index])
            rest = rest[(index + 1)...]
        }
    }
}

extension ReceivedRequests {
    /// The message for requests that came in order up to `found`, then none matching `missing` among `after`.
    fileprivate func orderFailure(
        routes: [Route], found: [JournalEntry], missing: RequestPattern, after: ArraySlice<JournalEntry>
    ) -> String {
        var lines = ["Expected requests in this order: \(routes.map(\.description).joined(separator: ", "))."]
        guard let last = found.last else {
            lines.append("No request matches \(missing).")
            let misses = Self.nearMisses(to: missing, among: entries)
            lines += entries.isEmpty ? ["No requests were received."] : misses
            return (lines + closingNotes).joined(separator: "\n")
        }
        let foundSoFar = zip(routes, found).map { "\($0) as request \($1.sequence)" }.joined(separator: ", then ")
        lines.append("Found \(foundSoFar), but no request matching \(missing) after request \(last.sequence).")
        let earlier = entries.filter { $0.sequence < last.sequence && missing.matches($0.request) }
        if !earlier.isEmpty {
            lines.append(
                "Earlier requests that match \(missing): \(earlier.map { "\($0.sequence)" }.joined(separator: ", ")).")
        }
        let misses = Self.nearMisses(to: missing, among: Array(after), place: " after request \(last.sequence)")
        lines += after.isEmpty ? ["No requests were received after request \(last.sequence)."] : misses
        return (lines + closingNotes).joined(separator: "\n")
    }
}
