extension [UInt8] {
    /// Appends the UTF-8 of `text` as one block, as the unmatched 404 and the request log write their text: appending
    /// a string's `utf8` view goes through the generic sequence path, which costs more than the copy.
    package mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, as `String(value)` writes it, without making that string:
    /// the request log writes two numbers a line.
    package mutating func append(decimal value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        let start = count
        repeat {
            append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        // Written lowest digit first.
        self[start...].reverse()
    }

    /// Appends the UTF-8 of `text` as one block.
    package mutating func append(utf8 text: Substring) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
