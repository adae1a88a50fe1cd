/// Checks UTF-8 a piece at a time, as a text message arrives in frames: a sequence may be split
/// between two frames, and RFC 6455 wants the connection failed as soon as the bytes cannot be
/// UTF-8, not once the message is whole (its autobahn cases 6.x check it).
///
/// The bounds on each continuation byte are the Unicode Standard's (table 3-7), so overlong forms,
/// surrogates and code points past U+10FFFF are refused at their first wrong byte.
struct UTF8Validator: Equatable {
    /// Continuation bytes the sequence begun still needs.
    private var needed = 0
    /// The range the next continuation byte must fall in.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Takes the next bytes; `false` once they cannot be UTF-8, however they go on.
    mutating func take(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            guard needed > 0 else {
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: begin(1)
                case 0xE0: begin(2, lower: 0xA0)
                case 0xE1...0xEC, 0xEE...0xEF: begin(2)
                case 0xED: begin(2, upper: 0x9F)
                case 0xF0: begin(3, lower: 0x90)
                case 0xF1...0xF3: begin(3)
                case 0xF4: begin(3, upper: 0x8F)
                default: return false
                }
                continue
            }
            guard byte >= lower, byte <= upper else { return false }
            (needed, lower, upper) = (needed - 1, 0x80, 0xBF)
        }
        return true
    }

    /// Whether the bytes so far end where a character ends, as a whole message must.
    var isComplete: Bool { needed == 0 }

    private mutating func begin(_ count: Int, lower: UInt8 = 0x80, upper: UInt8 = 0xBF) {
        (needed, self.lower, self.upper) = (count, lower, upper)
    }
}
