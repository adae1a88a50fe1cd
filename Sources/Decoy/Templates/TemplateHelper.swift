import Foundation

/// The helpers a template may call, as WireMock names them; `if`, `unless`, `each` and `with`
/// are blocks of the renderer, and so are `assign` and `parseJson`'s block form, which set a
/// variable. `uuid` is Decoy's own (WireMock writes `randomValue type='UUID'`).
enum TemplateHelper: String, Sendable, CaseIterable {
    // Values from the request and the world.
    case jsonPath, xPath, now, date, parseDate, randomValue, uuid, pickRandom
    // Numbers and lists.
    case math, range
    // Variables: `assign` is a block only; `parseJson` is a block or a call.
    case assign, parseJson
    // Text, as Handlebars-Java's string helpers.
    case upper, lower, capitalize, capitalizeFirst, trim, size, defaultIfEmpty, join, replace, substring, abbreviate
    case urlEncode, base64, contains, matches, regexExtract
    // Conditions, as Handlebars-Java's conditional helpers.
    case eq, neq, gt, gte, lt, lte, and, or, not

    /// How many positional arguments it takes, and which `name=value` pairs.
    private var signature: (arguments: ClosedRange<Int>, hash: Set<String>) {
        switch self {
        case .jsonPath, .xPath, .range: (2...2, [])
        case .now: (0...0, ["offset", "format", "timezone"])
        // WireMock 2.35.1's `date` takes `timezone=` and leaves the date in its own offset all the same.
        case .date: (0...1, ["offset", "format", "timezone"])
        case .parseDate: (1...1, ["format"])
        case .pickRandom: (1...Int.max, [])
        case .math: (3...3, [])
        case .assign: (1...1, [])
        case .parseJson: (1...2, [])
        case .randomValue: (0...0, ["length", "type", "uppercase"])
        case .uuid: (0...0, [])
        case .upper, .lower, .capitalize, .capitalizeFirst, .trim, .size, .not: (1...1, [])
        case .urlEncode, .base64: (1...1, ["decode"])
        case .defaultIfEmpty, .join, .abbreviate, .contains, .matches, .regexExtract: (2...2, [])
        case .substring: (2...3, [])
        case .replace: (3...3, [])
        case .eq, .neq, .gt, .gte, .lt, .lte: (2...2, [])
        case .and, .or: (2...Int.max, [])
        }
    }

    static let randomTypes = [
        "ALPHANUMERIC", "ALPHABETIC", "NUMERIC", "ALPHANUMERIC_AND_SYMBOLS", "HEXADECIMAL", "UUID",
    ]

    /// Checks the arguments of a call at load; what is literal is checked whole.
    func check(
        _ parameters: [TemplateExpression], _ hash: [String: TemplateExpression], at offset: Int,
        _ parser: TemplateParser
    ) throws(DecoyError) {
        let (arguments, names) = signature
        guard arguments.contains(parameters.count) else {
            let count =
                arguments.upperBound == Int.max
                ? "at least \(arguments.lowerBound)"
                : arguments.count == 1
                    ? "\(arguments.lowerBound)" : "\(arguments.lowerBound) to \(arguments.upperBound)"
            throw parser.error(
                at: offset, helper: rawValue,
                "\(rawValue) takes \(count) value\(arguments.upperBound == 1 ? "" : "s"), not \(parameters.count)")
        }
        for name in hash.keys.sorted() where !names.contains(name) {
            throw parser.error(
                at: offset, helper: rawValue,
                names.isEmpty
                    ? "\(rawValue) takes no name=value pairs, not \(name)="
                    : "\(rawValue) takes \(names.sorted().map { $0 + "=" }.joined(separator: ", ")), not \(name)=")
        }
        func literal(_ name: String) -> String? {
            if case .literal(let value) = hash[name] { return value.text }
            return nil
        }
        do throws(TemplateRenderError) {
            switch self {
            case .now, .date:
                if let offsetText = literal("offset") { _ = try Self.offset(offsetText) }
                if let zone = literal("timezone"), TimeZone(identifier: zone) == nil {
                    throw TemplateRenderError("\(zone) is not a time zone")
                }
            case .randomValue:
                if let type = literal("type"), !Self.randomTypes.contains(type) {
                    throw TemplateRenderError("type is one of \(Self.randomTypes.joined(separator: ", ")), not \(type)")
                }
                if hash["length"] == nil, literal("type") != "UUID" {
                    throw TemplateRenderError("randomValue needs length=, except for type='UUID'")
                }
            case .matches, .regexExtract:
                if case .literal(let pattern) = parameters[1] { _ = try Self.regularExpression(pattern.text) }
            case .math:
                try Self.checkMath(parameters)
            case .range:
                if case .literal(let lower) = parameters[0], case .literal(let upper) = parameters[1] {
                    _ = try Self.bounds(lower.text, upper.text)
                }
                for case .literal(let bound) in parameters { _ = try Self.bound(bound.text) }
            case .assign, .parseJson:
                let name = parameters.count == 2 ? parameters[1] : parameters[0]
                guard self == .parseJson && parameters.count == 1 || Self.isName(name) else {
                    throw TemplateRenderError(
                        "\(rawValue) takes the variable's name as quoted text, as in '\(rawValue)Result'")
                }
            default:
                break
            }
        } catch {
            throw parser.error(at: offset, helper: rawValue, error.reason)
        }
    }

    /// The helper's value for evaluated arguments.
    func call(_ arguments: [TemplateValue], _ hash: [String: TemplateValue], _ context: TemplateContext)
        throws(TemplateRenderError) -> TemplateValue
    {
        let text = arguments.first?.text ?? ""
        switch self {
        case .jsonPath, .xPath:
            preconditionFailure("\(rawValue) is compiled into its own expression")
        case .assign:
            preconditionFailure("assign is a block, which the renderer runs")
        case .parseJson:
            // As a block, or as a call that sets a variable, it is the renderer's; here it gives the value.
            return try Self.parseJSON(text)
        case .now:
            return try Self.now(context.now(), hash)
        case .date:
            return try Self.date(arguments.first, hash, context.now())
        case .parseDate:
            return try Self.parseDate(text, format: hash["format"]?.text)
        case .pickRandom:
            let choices = arguments.count == 1 ? arguments[0].elements ?? arguments : arguments
            return choices.isEmpty ? .null : choices[context.random.index(below: choices.count)]
        case .math:
            return try Self.math(arguments[0], arguments[1].text, arguments[2])
        case .range:
            return .list(try Self.bounds(arguments[0].text, arguments[1].text).map { .number(Double($0)) })
        case .randomValue:
            return .string(try Self.randomValue(hash, context.random))
        case .uuid:
            return .string(Self.uuid(context.random))
        case .upper: return .string(text.uppercased())
        case .lower: return .string(text.lowercased())
        case .capitalize:
            return .string(
                text.split(separator: " ", omittingEmptySubsequences: false).map {
                    $0.prefix(1).uppercased() + $0.dropFirst()
                }.joined(separator: " "))
        case .capitalizeFirst: return .string(text.prefix(1).uppercased() + text.dropFirst())
        case .trim: return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case .size:
            if let elements = arguments[0].elements { return .number(Double(elements.count)) }
            if let members = arguments[0].members { return .number(Double(members.count)) }
            return .number(Double(text.count))
        case .defaultIfEmpty: return arguments[0].isTruthy ? arguments[0] : arguments[1]
        case .join:
            return .string((arguments[0].elements ?? [arguments[0]]).map(\.text).joined(separator: arguments[1].text))
        case .replace: return .string(text.replacingOccurrences(of: arguments[1].text, with: arguments[2].text))
        case .substring:
            let characters = Array(text)
            let start = min(max(Int(arguments[1].number ?? 0), 0), characters.count)
            let end =
                arguments.count > 2
                ? min(max(Int(arguments[2].number ?? 0), start), characters.count) : characters.count
            return .string(String(characters[start..<end]))
        case .abbreviate:
            let width = Int(arguments[1].number ?? 0)
            guard text.count > width else { return .string(text) }
            return .string(String(text.prefix(max(width - 3, 0))) + "...")
        case .urlEncode:
            if hash["decode"]?.isTruthy == true {
                return .string(text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text)
            }
            return .string(Self.formEncoded(text))
        case .base64:
            if hash["decode"]?.isTruthy == true {
                return .string(Data(base64Encoded: text).flatMap { String(data: $0, encoding: .utf8) } ?? "")
            }
            return .string(Data(text.utf8).base64EncodedString())
        case .contains:
            if let elements = arguments[0].elements, !isText(arguments[0]) {
                return .bool(elements.contains { $0.text == arguments[1].text })
            }
            return .bool(text.contains(arguments[1].text))
        case .matches:
            return .bool(
                try Self.regularExpression(arguments[1].text).firstMatch(
                    in: text, range: NSRange(text.startIndex..., in: text)) != nil)
        case .regexExtract:
            guard
                let match = try Self.regularExpression(arguments[1].text).firstMatch(
                    in: text, range: NSRange(text.startIndex..., in: text)),
                let range = Range(match.range, in: text)
            else { return .null }
            return .string(String(text[range]))
        case .eq: return .bool(Self.compare(arguments[0], arguments[1]) == .orderedSame)
        case .neq: return .bool(Self.compare(arguments[0], arguments[1]) != .orderedSame)
        case .gt: return .bool(Self.compare(arguments[0], arguments[1]) == .orderedDescending)
        case .gte: return .bool(Self.compare(arguments[0], arguments[1]) != .orderedAscending)
        case .lt: return .bool(Self.compare(arguments[0], arguments[1]) == .orderedAscending)
        case .lte: return .bool(Self.compare(arguments[0], arguments[1]) != .orderedDescending)
        case .and: return .bool(arguments.allSatisfy(\.isTruthy))
        case .or: return .bool(arguments.contains(where: \.isTruthy))
        case .not: return .bool(!arguments[0].isTruthy)
        }
    }

    /// A query or header value counts as text for text helpers: WireMock's lists of one value
    /// would make `contains` look for a whole value, which no one means.
    private func isText(_ value: TemplateValue) -> Bool {
        if case .values(let values) = value { return values.count == 1 }
        return false
    }

    /// Numbers compare as numbers, anything else by its text: `eq request.method 'GET'` holds,
    /// where Handlebars-Java compares WireMock's objects and finds them unequal.
    private static func compare(_ left: TemplateValue, _ right: TemplateValue) -> ComparisonResult {
        if let a = left.number, let b = right.number {
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        }
        let (a, b) = (left.text, right.text)
        return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
    }

    // MARK: now

    /// `offset='3 days'`: an amount and a unit, singular or plural.
    static func offset(_ text: String) throws(TemplateRenderError) -> DateComponents {
        let parts = text.split(separator: " ")
        let units: [String: Calendar.Component] = [
            "second": .second, "minute": .minute, "hour": .hour, "day": .day, "week": .weekOfYear, "month": .month,
            "year": .year,
        ]
        guard parts.count == 2, let amount = Int(String(parts[0])),
            let unit = units[singular(parts[1].lowercased())]
        else {
            throw TemplateRenderError("offset is an amount and a unit, as '3 days' or '-2 hours', not '\(text)'")
        }
        var components = DateComponents()
        components.setValue(amount, for: unit)
        return components
    }

    private static func singular(_ unit: String) -> String {
        unit.hasSuffix("s") ? String(unit.dropLast()) : unit
    }

    private static func now(_ date: Date, _ hash: [String: TemplateValue]) throws(TemplateRenderError) -> TemplateValue
    {
        var calendar = Calendar(identifier: .gregorian)
        let zoneName = hash["timezone"]?.text ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw TemplateRenderError("\(zoneName) is not a time zone")
        }
        calendar.timeZone = zone
        var date = date
        if let offset = hash["offset"] {
            guard let moved = calendar.date(byAdding: try Self.offset(offset.text), to: date) else {
                throw TemplateRenderError("offset \(offset.text) leaves the calendar")
            }
            date = moved
        }
        guard let format = hash["format"]?.text, format != "epoch", format != "unix" else {
            return written(date, secondsFromGMT: zone.secondsFromGMT(for: date), format: hash["format"]?.text)
        }
        // A named zone rather than its offset, so that a pattern's `z` names it.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = calendar
        formatter.timeZone = zone
        formatter.dateFormat = format
        return .string(formatter.string(from: date))
    }

    // MARK: randomValue and uuid

    private static func randomValue(_ hash: [String: TemplateValue], _ random: RandomSource) throws(TemplateRenderError)
        -> String
    {
        let type = hash["type"]?.text ?? "ALPHANUMERIC"
        if type == "UUID" { return uuid(random) }
        guard let length = hash["length"]?.number.map(Int.init), length >= 0 else {
            throw TemplateRenderError("randomValue's length= is a whole number")
        }
        let letters = "abcdefghijklmnopqrstuvwxyz"
        let digits = "0123456789"
        let alphabet: [Character] =
            switch type {
            case "ALPHABETIC": Array(letters)
            case "NUMERIC": Array(digits)
            case "HEXADECIMAL": Array(digits + "abcdef")
            case "ALPHANUMERIC_AND_SYMBOLS": Array(letters + digits + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
            case "ALPHANUMERIC": Array(letters + digits)
            default: throw TemplateRenderError("type is one of \(randomTypes.joined(separator: ", ")), not \(type)")
            }
        let value = String((0..<length).map { _ in alphabet[random.index(below: alphabet.count)] })
        return hash["uppercase"]?.isTruthy == true ? value.uppercased() : value
    }

    /// A version 4 UUID from the stub's random source, so that a seeded stub repeats its UUIDs.
    private static func uuid(_ random: RandomSource) -> String {
        var bytes = (0..<16).map { _ in random.byte() }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }

    // MARK: Text

    /// `application/x-www-form-urlencoded`, as Java's `URLEncoder`: a space is `+`.
    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-_.*")
        return text.split(separator: " ", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "+")
    }

    private static func regularExpression(_ pattern: String) throws(TemplateRenderError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw TemplateRenderError("\(pattern) is not a regular expression")
        }
    }
}

/// Why a template could not be rendered for one request, in words.
package struct TemplateRenderError: Error, Sendable {
    /// What went wrong.
    package let reason: String
    /// Creates an error saying `reason`.
    package init(_ reason: String) { self.reason = reason }
}

extension TemplateValue {
    /// The value as a number, when it is one or is text that reads as one.
    var number: Double? {
        switch self {
        case .number(let number): number
        case .json(.number(let number)): number
        case .bool: nil
        default: Double(text.trimmingCharacters(in: .whitespaces))
        }
    }
}
