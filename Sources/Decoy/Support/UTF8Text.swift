extension [UInt8] {
    /// Appends the UTF-8 of `text` as one block, as the unmatched 404 and the request log write their text: appending
    /// a string's `utf8` view goes through the generic sequence path, which costs more than the copy.
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 of `text` as one block.
    package mutating func append(utf8 text: Substring) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
