import Decoy

/// A journal read once, so that one assertion judges one consistent set of requests, with the
/// wording every failure message shares.
struct ReceivedRequests {
    /// The requests kept, oldest first.
    let entries: [JournalEntry]
    /// How many arrived, including those the journal no longer keeps.
    let total: Int
    /// The live server's dashboard, if there is one.
    let dashboardURL: String?

    /// Near misses shown; past a few, the rest only add noise.
    static let nearMissLimit = 3
    /// Requests listed by name before the rest are only counted.
    static let listedLimit = 5

    init(_ recording: some RequestRecording) {
        entries = recording.journal.entries
        dashboardURL = recording.dashboardURL
        // From the entries rather than `totalCount`, which a request arriving meanwhile could move on.
        total = entries.last?.sequence ?? 0
    }

    /// `2. POST /users → 201` for each of `listed`, up to ``listedLimit``, then how many more.
    static func list(_ listed: [JournalEntry]) -> [String] {
        var lines = listed.prefix(listedLimit).map { "  \($0.sequence). \($0)" }
        if listed.count > listedLimit { lines.append("  … and \(listed.count - listedLimit) more") }
        return lines
    }

    /// The requests among `candidates` nearest to `pattern`, ranked as the unmatched 404 ranks its
    /// closest routes (the fewest differences, then the fewest edits, then the oldest), each with every part that
    /// differed; `place` says where they were looked for.
    static func nearMisses(to pattern: RequestPattern, among candidates: [JournalEntry], place: String = "") -> [String]
    {
        let ranked = Closeness.ranked(candidates, from: pattern) { $0.request }
        guard !ranked.isEmpty else { return [] }
        let shown = ranked.prefix(nearMissLimit)
        let count = shown.count < ranked.count ? "closest \(shown.count) of \(ranked.count)" : "closest first"
        return ["Near misses\(place) (\(count)):"]
            + shown.map { miss in
                "  \(miss.candidate.sequence). \(miss.candidate): \(miss.differences.joined(separator: "; "))"
            }
    }

    /// What closes every failure: that the journal dropped older requests, when it did (they were
    /// not looked at), and where the live server's dashboard shows them all.
    var closingNotes: [String] {
        (total > entries.count ? ["The journal keeps the last \(entries.count) of \(total) requests received."] : [])
            + (dashboardURL.map { ["See every request, and why one did not match, at \($0)"] } ?? [])
    }
}
