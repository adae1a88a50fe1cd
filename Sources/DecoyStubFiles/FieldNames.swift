/// The messages for fields a stub file has but Decoy does not know.
enum FieldNames {
    /// WireMock fields Decoy does not have, with what to do instead.
    private static let unsupported: [String: String] = [
        "multipartPatterns": "match the body instead",
        "pathParameters": "path parameters match any segment",
        "serveEventListeners": "serve event listeners are not supported",
    ]

    /// The error for the unknown field `name` among `known`: the closest known name when one is near.
    static func unknownField(_ name: String, known: [String]) -> String {
        if let reason = unsupported[name] { return "not supported by Decoy: \(reason)" }
        if let closest = closest(to: name, among: known) { return "unknown field; did you mean \"\(closest)\"?" }
        return "unknown field; expected one of \(known.joined(separator: ", "))"
    }

    /// The name in `candidates` nearest to `name` by edit distance, ignoring case, if near enough to be a slip.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased())
        let scored = candidates.map { (name: $0, distance: editDistance(target, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return best.distance <= max(2, target.count / 3) ? best.name : nil
    }

    /// Levenshtein distance, one row at a time.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
