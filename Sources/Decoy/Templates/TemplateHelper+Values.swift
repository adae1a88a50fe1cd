import Foundation

/// `math`, `range`, `parseJson`, `date` and `parseDate`, as WireMock 2.35.1 computes and writes them.
extension TemplateHelper {
    // MARK: math

    static let mathOperators: Set<String> = ["+", "-", "*", "x", "/", "%"]

    /// What can be known at load: the operator, literal operands that are numbers, no literal zero divisor.
    static func checkMath(_ parameters: [TemplateExpression]) throws(TemplateRenderError) {
        if case .literal(let operation) = parameters[1], !mathOperators.contains(operation.text) {
            throw TemplateRenderError(
                "math's operator is one of \(mathOperators.sorted().joined(separator: " ")), not \(operation.text)")
        }
        for index in [0, 2] {
            guard case .literal(let operand) = parameters[index] else { continue }
            guard let number = JavaDecimal(operand) else {
                throw TemplateRenderError("math takes numbers, not '\(operand.text)'")
            }
            if index == 2, number.unscaled == 0, case .literal(let operation) = parameters[1],
                ["/", "%"].contains(operation.text)
            {
                throw TemplateRenderError("math divides by zero")
            }
        }
    }

    /// `left operation right` in Java's `BigDecimal`, as WireMock's `math` does: an operand that is
    /// not a number counts as 0, and a result with no fraction digits is written whole.
    static func math(_ left: TemplateValue, _ operation: String, _ right: TemplateValue) throws(TemplateRenderError)
        -> TemplateValue
    {
        let (a, b) = (
            JavaDecimal(left) ?? JavaDecimal(unscaled: 0, scale: 0),
            JavaDecimal(right) ?? JavaDecimal(unscaled: 0, scale: 0)
        )
        let result: JavaDecimal?
        switch operation {
        case "+": result = a.adding(b, negated: false)
        case "-": result = a.adding(b, negated: true)
        case "*", "x": result = a.multiplied(by: b)
        case "/":
            guard b.unscaled != 0 else { throw TemplateRenderError("math divides by zero") }
            result = a.divided(by: b)
        case "%":
            guard b.unscaled != 0 else { throw TemplateRenderError("math divides by zero") }
            result = a.remainder(dividingBy: b)
        default:
            throw TemplateRenderError(
                "math's operator is one of \(mathOperators.sorted().joined(separator: " ")), not \(operation)")
        }
        guard let result else { throw TemplateRenderError("math's result is too large") }
        return result.value
    }

    // MARK: range

    /// The whole numbers `range` gives; WireMock fails on bounds the wrong way round.
    static func bounds(_ lower: String, _ upper: String) throws(TemplateRenderError) -> ClosedRange<Int> {
        let (lower, upper) = (try bound(lower), try bound(upper))
        guard lower <= upper else {
            throw TemplateRenderError("range's lower bound \(lower) is above its upper bound \(upper)")
        }
        return lower...upper
    }

    /// A bound of `range`: a whole number, written or as text.
    static func bound(_ text: String) throws(TemplateRenderError) -> Int {
        guard let bound = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw TemplateRenderError("range takes whole numbers as bounds, not '\(text)'")
        }
        return bound
    }

    // MARK: parseJson and assign

    /// Whether `expression` is a variable's name written as quoted text.
    static func isName(_ expression: TemplateExpression) -> Bool {
        if case .literal(.string(let name)) = expression, !name.isEmpty, !name.contains(where: \.isWhitespace) {
            return true
        }
        return false
    }

    static func parseJSON(_ text: String) throws(TemplateRenderError) -> TemplateValue {
        guard let json = JSONValue(parsing: text) else {
            throw TemplateRenderError("parseJson was given text that is not JSON: \(text.prefix(40))")
        }
        return TemplateValue(parsed: json)
    }

    // MARK: Dates

    /// A date as `now` and `date` write it: a date value (ISO 8601 when written) when no format is
    /// given, milliseconds or seconds since 1970 for `epoch` and `unix`, else the pattern.
    static func written(_ date: Date, secondsFromGMT: Int, format: String?) -> TemplateValue {
        switch format {
        case nil: .date(date, secondsFromGMT: secondsFromGMT)
        case "epoch": .string(String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))))
        case "unix": .string(String(Int64(date.timeIntervalSince1970.rounded(.down))))
        case let pattern?: .string(TemplateValue.format(date, pattern, secondsFromGMT))
        }
    }

    /// `date`: the date given, or now when what is given is not a date (as WireMock does), moved
    /// by `offset=` and written in its own offset from UTC.
    static func date(_ value: TemplateValue?, _ hash: [String: TemplateValue], _ now: Date)
        throws(TemplateRenderError) -> TemplateValue
    {
        var (date, secondsFromGMT) = (now, 0)
        if case .date(let given, let offset) = value { (date, secondsFromGMT) = (given, offset) }
        if let offset = hash["offset"] {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(secondsFromGMT: secondsFromGMT) ?? calendar.timeZone
            guard let moved = calendar.date(byAdding: try Self.offset(offset.text), to: date) else {
                throw TemplateRenderError("offset \(offset.text) leaves the calendar")
            }
            date = moved
        }
        return written(date, secondsFromGMT: secondsFromGMT, format: hash["format"]?.text)
    }

    /// `parseDate`: ISO 8601 (its offset kept) or RFC 1123 without a format; with one,
    /// milliseconds (`epoch`) or seconds (`unix`) since 1970, or a date pattern read in UTC. Text
    /// that is no date gives nothing, as in WireMock.
    static func parseDate(_ text: String, format: String?) throws(TemplateRenderError) -> TemplateValue {
        switch format {
        case "epoch", "unix":
            guard let count = Int64(text.trimmingCharacters(in: .whitespaces)) else {
                throw TemplateRenderError("parseDate format='\(format!)' takes a whole number, not '\(text)'")
            }
            let seconds = format == "epoch" ? Double(count) / 1000 : Double(count)
            return .date(Date(timeIntervalSince1970: seconds), secondsFromGMT: 0)
        case let pattern?:
            return parsed(text, pattern).map { .date($0, secondsFromGMT: 0) } ?? .null
        case nil:
            if let date = parsed(text, "yyyy-MM-dd'T'HH:mm:ss.SSSXXXXX") ?? parsed(text, "yyyy-MM-dd'T'HH:mm:ssXXXXX") {
                return .date(date, secondsFromGMT: offset(ofISO8601: text))
            }
            return parsed(text, "EEE, dd MMM yyyy HH:mm:ss zzz").map { .date($0, secondsFromGMT: 0) } ?? .null
        }
    }

    private static func parsed(_ text: String, _ pattern: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        return formatter.date(from: text)
    }

    /// The offset an ISO 8601 text ends with: `Z`, or `±hh:mm`.
    private static func offset(ofISO8601 text: String) -> Int {
        guard !text.hasSuffix("Z"), text.count > 6 else { return 0 }
        let suffix = text.suffix(6)
        guard let sign = suffix.first, sign == "+" || sign == "-", let hours = Int(suffix.dropFirst().prefix(2)),
            let minutes = Int(suffix.suffix(2))
        else { return 0 }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}

/// A decimal number as Java's `BigDecimal` holds it, `unscaled × 10^-scale`, so that `math` keeps
/// WireMock's scales: `7 / 2` is `4` (the left operand's scale, half up), `1.5 * 2` is `3.0`.
struct JavaDecimal {
    var unscaled: Int64
    var scale: Int

    init(unscaled: Int64, scale: Int) {
        self.unscaled = unscaled
        self.scale = scale
    }

    /// A template value as WireMock hands it to `BigDecimal`: whole numbers exactly, doubles
    /// through their Java text (`2.0` has scale 1), text as written; `nil` for what is not a number.
    init?(_ value: TemplateValue) {
        switch value {
        case .number(let number) where number.rounded() == number && abs(number) < 9e15:
            self.init(unscaled: Int64(number), scale: 0)
        case .number(let number), .decimal(let number), .json(.number(let number)):
            self.init(text: number.javaText)
        default:
            self.init(text: value.text.trimmingCharacters(in: .whitespaces))
        }
    }

    /// `-12.340`, `1.0E10`.
    init?(text: String) {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let written = Int(mantissa[mantissa.index(after: e)...]) else { return nil }
            exponent = written
            mantissa = mantissa[..<e]
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int64(parts[0] + (parts.count == 2 ? parts[1] : "")),
            parts[0].contains(where: \.isNumber) || parts.count == 2 && parts[1].contains(where: \.isNumber)
        else { return nil }
        self.init(unscaled: whole, scale: (parts.count == 2 ? parts[1].count : 0) - exponent)
    }

    /// The value a template writes: whole when the scale is 0, else a Java double.
    var value: TemplateValue {
        if scale == 0 { return .number(Double(unscaled)) }
        let magnitude = pow(10, Double(abs(scale)))
        return .decimal(scale > 0 ? Double(unscaled) / magnitude : Double(unscaled) * magnitude)
    }

    /// `unscaled` at a larger scale; `nil` on overflow.
    private func rescaled(to newScale: Int) -> Int64? {
        var result = unscaled
        for _ in scale..<newScale {
            let (next, overflow) = result.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            result = next
        }
        return result
    }

    func adding(_ other: JavaDecimal, negated: Bool) -> JavaDecimal? {
        let common = max(scale, other.scale)
        guard let a = rescaled(to: common), let b = other.rescaled(to: common) else { return nil }
        let (sum, overflow) = negated ? a.subtractingReportingOverflow(b) : a.addingReportingOverflow(b)
        return overflow ? nil : JavaDecimal(unscaled: sum, scale: common)
    }

    func multiplied(by other: JavaDecimal) -> JavaDecimal? {
        let (product, overflow) = unscaled.multipliedReportingOverflow(by: other.unscaled)
        return overflow ? nil : JavaDecimal(unscaled: product, scale: scale + other.scale)
    }

    /// `BigDecimal.divide(other, HALF_UP)`: the quotient at this number's scale, halves away from zero.
    func divided(by other: JavaDecimal) -> JavaDecimal? {
        // self / other at scale s is (u1 × 10^s2) / u2 when s2 ≥ 0.
        var numerator = JavaDecimal(unscaled: unscaled, scale: 0)
        var denominator = other.unscaled
        if other.scale >= 0 {
            guard let scaled = numerator.rescaled(to: other.scale) else { return nil }
            numerator.unscaled = scaled
        } else {
            guard let scaled = JavaDecimal(unscaled: denominator, scale: 0).rescaled(to: -other.scale) else {
                return nil
            }
            denominator = scaled
        }
        var quotient = numerator.unscaled / denominator
        let remainder = numerator.unscaled % denominator
        if remainder.magnitude >= denominator.magnitude - remainder.magnitude {
            quotient += (numerator.unscaled < 0) == (denominator < 0) ? 1 : -1
        }
        return JavaDecimal(unscaled: quotient, scale: scale)
    }

    /// `BigDecimal.remainder`: the sign of this number, the larger scale.
    func remainder(dividingBy other: JavaDecimal) -> JavaDecimal? {
        let common = max(scale, other.scale)
        guard let a = rescaled(to: common), let b = other.rescaled(to: common) else { return nil }
        return JavaDecimal(unscaled: a % b, scale: common)
    }
}
