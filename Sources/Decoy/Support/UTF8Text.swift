extension [UInt8] {
    /// Appends the UTF-8 of `text` as one block, as the unmatched 404 and the request log write their text: appending
    /// a string's `utf8` view goes through the generic sequence path, which costs more than the copy.
    package mutating func append(utf8 text: String) {
        // Read in place, small strings included; only a string bridged from elsewhere is copied.
        guard text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil else { return }
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, as `String(value)` writes it, without making that string:
    /// the request log writes two numbers a line.
    package mutating func append(decimal value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        // Lowest digit first, from the end of room on the stack, then appended as one block:
        // reversing them in place, through a slice of the array, copied the slice.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends the UTF-8 of `text` as one block.
    package mutating func append(utf8 text: Substring) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

extension Substring {
    /// Calls `body` with each non-empty part of the text between `separator`s, in order, until it
    /// returns `false`. The separator is ASCII, which is never part of another character, so the
    /// bytes are split, in one pass over them in place and without an array of the parts.
    // Pays: scripts/benchmarks instructions, "templated answer", against splitting into an array.
    func forEachPart(separatedBy separator: Unicode.Scalar, _ body: (Substring) -> Bool) {
        var text = self
        text.withUTF8 { bytes in
            bytes.forEachPart(separatedBy: UInt8(ascii: separator)) { part in
                // Offsets into the UTF-8 of a native string make indices at no cost; a part is
                // never empty, so it has an address.
                let start = part.baseAddress! - bytes.baseAddress!
                return body(
                    self[utf8.index(startIndex, offsetBy: start)..<utf8.index(startIndex, offsetBy: start + part.count)]
                )
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Calls `body` with each non-empty part of the bytes between `separator`s, in order, until it
    /// returns `false`.
    func forEachPart(separatedBy separator: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var start = 0
        for (offset, byte) in enumerated() where byte == separator {
            if offset != start, !body(UnsafeBufferPointer(rebasing: self[start..<offset])) { return }
            start = offset + 1
        }
        if start != count { _ = body(UnsafeBufferPointer(rebasing: self[start...])) }
    }
}
