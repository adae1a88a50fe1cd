extension Double {
    /// The number as Java's `Double.toString` writes it (`4.0`, `0.3`, `1.0E-4`, `1.23456789E11`),
    /// which is how WireMock writes a double: JSON path aggregates, `math` with a fraction.
    var javaText: String {
        guard isFinite else { return isNaN ? "NaN" : self < 0 ? "-Infinity" : "Infinity" }
        let sign = self < 0 || (self == 0 && self.sign == .minus) ? "-" : ""
        guard self != 0 else { return sign + "0.0" }
        // Swift's description has the shortest digits that read back as the same double, as Java's do.
        var mantissa = Substring(abs(self).description)
        var exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(mantissa[mantissa.index(after: e)...]) ?? 0
            mantissa = mantissa[..<e]
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        var digits = parts[0] + (parts.count > 1 ? parts[1] : "")
        // The decimal point stands after this many digits.
        var point = parts[0].count + exponent
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let magnitude = abs(self)
        if magnitude >= 1e-3, magnitude < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + digits }
            if point >= digits.count {
                return sign + digits + String(repeating: "0", count: point - digits.count) + ".0"
            }
            let index = digits.index(digits.startIndex, offsetBy: point)
            return sign + digits[..<index] + "." + digits[index...]
        }
        let fraction = digits.dropFirst()
        return sign + digits.prefix(1) + "." + (fraction.isEmpty ? "0" : fraction) + "E" + String(point - 1)
    }
}
