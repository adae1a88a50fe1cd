/// How far apart two path segments are in single-byte edits, so that near misses with as many
/// differences rank a one-letter typo (`/user/42` for `/users/{id}`) before another segment
/// altogether (`/orders/{id}`), and so that the trie finds a typo's siblings without trying them all.
enum SegmentEdits {
    /// Segments longer than this are not measured: they count as all different, and the trie
    /// does not index them. Typos worth pointing out are in names, and the bound keeps a request
    /// with a segment of kilobytes from costing more than a short one.
    static let measuredLength = 64

    /// The Levenshtein distance between `received` and `expected`, in bytes: how many bytes to
    /// insert, delete or replace to make one the other; their longer length past ``measuredLength``.
    static func distance(_ received: Substring, _ expected: String) -> Int {
        let received = received.utf8
        let expected = expected.utf8
        guard received.count <= measuredLength, expected.count <= measuredLength else {
            return max(received.count, expected.count)
        }
        // One row of the table at a time, over the expected bytes, on the stack: the closest
        // routes of every unmatched request measure a few segments each.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: expected.count + 1) { row in
            for column in row.indices { row[column] = column }
            // Counted by hand: `enumerated()` costs a generic lookup per step in a debug build.
            var index = 0
            for byte in received {
                index += 1
                var diagonal = row[0]
                row[0] = index
                var column = 0
                for other in expected {
                    let replaced = diagonal + (byte == other ? 0 : 1)
                    diagonal = row[column + 1]
                    row[column + 1] = min(replaced, row[column] + 1, diagonal + 1)
                    column += 1
                }
            }
            return row[expected.count]
        }
    }

    /// `segment` itself and `segment` with each one of its bytes left out in turn, each once; empty
    /// past ``measuredLength``. Two segments one edit apart (a byte inserted, deleted or replaced,
    /// or two neighbours swapped) share at least one of these, so a table of them finds a typo's
    /// siblings with a lookup for each. Leaving out a byte of a longer UTF-8 character may make
    /// text that is not UTF-8, which decodes with a replacement character: such variants only
    /// ever find more siblings, never fewer.
    static func variants(of segment: some StringProtocol) -> [String] {
        let bytes = Array(segment.utf8)
        guard bytes.count <= measuredLength else { return [] }
        var variants = [String(segment)]
        for left in bytes.indices where left == 0 || bytes[left] != bytes[left - 1] {
            // Leaving out either of two equal neighbours gives the same text: the first is enough.
            variants.append(
                String(unsafeUninitializedCapacity: bytes.count - 1) { text in
                    var written = 0
                    for index in bytes.indices where index != left {
                        text[written] = bytes[index]
                        written += 1
                    }
                    return written
                })
        }
        return variants
    }
}
