import Foundation

/// A route's path, parsed once at registration.
enum PathPattern: Sendable {
    /// Template segments.
    case segments([PathSegment])
    /// A regular expression over the whole decoded path, and the whole segments it starts with
    /// as plain text (``plainSegments(startingExpression:)``).
    case expression(CompiledExpression, plainStart: [String])

    init(parsing route: Route) throws(DecoyError) {
        switch route.pathSyntax {
        case .regularExpression:
            self = .expression(
                try CompiledExpression(
                    route.path, shownAs: route.pathTemplate,
                    orThrow: { DecoyError.invalidRoute(path: route.path, reason: $0) }),
                plainStart: Self.plainSegments(startingExpression: route.path))
        case .template, .exact:
            guard route.path.hasPrefix("/") else {
                throw DecoyError.invalidRoute(path: route.path, reason: "a path must start with \"/\"")
            }
            let parts = Self.segments(of: route.path)
            self = .segments(
                route.pathSyntax == .exact
                    ? parts.map { .literal(String($0)) } : try Self.parseTemplate(parts, of: route.path))
        }
    }

    /// The path when every segment is literal, the key under which such routes hash.
    var literalPath: String? {
        guard case .segments(let segments) = self else { return nil }
        var path = ""
        for segment in segments {
            guard case .literal(let text) = segment else { return nil }
            path += "/" + text
        }
        return path.isEmpty ? "/" : path
    }

    /// Whether a request with `path`, split into `segments`, has this path.
    func matches(path: String, segments requestSegments: [Substring]) -> Bool {
        var differences = DifferenceCount()
        appendDifferences(path: path, segments: requestSegments, to: &differences)
        return differences.count == 0
    }

    /// Appends every way a request path differs from this pattern: each literal segment that
    /// differs, then the number of segments; nothing when it fits.
    func appendDifferences(
        path: String, segments requestSegments: [Substring], to differences: inout some DifferenceSink
    ) {
        switch self {
        case .expression(let expression, let plainStart):
            switch expression.matchesWhole(path) {
            case true: return
            case false:
                differences.add(
                    .pathExpression(
                        expression, edits: 1 + Self.edits(from: requestSegments, toStart: plainStart)))
            case nil: differences.add(.pathExpressionGaveUp(expression))
            }
        case .segments(let segments):
            for (index, segment) in segments.enumerated() {
                if case .rest = segment {
                    if requestSegments.count < index {
                        differences.add(.segmentCount(expected: index, orMore: true, received: requestSegments.count))
                    }
                    return
                }
                guard index < requestSegments.count else { continue }
                if case .literal(let text) = segment, text != requestSegments[index] {
                    differences.add(.segment(index: index, received: requestSegments[index], expected: text))
                }
            }
            if segments.count != requestSegments.count {
                differences.add(.segmentCount(expected: segments.count, orMore: false, received: requestSegments.count))
            }
        }
    }

    /// The whole segments every text an expression matches starts with: `/users/9\d\d` gives
    /// `["users"]`, `/orders/[0-9]+/items` `["orders"]`, and an expression that starts with
    /// anything but `/` (after an optional `^`) none. A segment cut by the first character that
    /// means more than itself is not whole, so `/users?/7` gives none; nor does an expression
    /// with an alternative outside any group (`/a/b|/c`), whose texts need not start alike.
    ///
    /// A route is met there by the search for near misses, measured from there, and matched only
    /// by requests whose path goes through there, so a request elsewhere never runs the expression.
    static func plainSegments(startingExpression pattern: String) -> [String] {
        let text = pattern.hasPrefix("^") ? pattern.dropFirst() : Substring(pattern)
        guard text.hasPrefix("/"), !hasAlternativeOutsideGroups(text) else { return [] }
        let plain = text.prefix { !#"\.[](){}*+?^$|"#.contains($0) }
        var segments = plain.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if plain.count < text.count { segments.removeLast() }
        return segments
    }

    /// Whether `pattern` has a `|` outside every group and class, which splits the whole
    /// expression into alternatives.
    private static func hasAlternativeOutsideGroups(_ pattern: Substring) -> Bool {
        var depth = 0
        var inClass = false
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth = max(0, depth - 1)
            case "|" where !inClass && depth == 0: return true
            default: break
            }
        }
        return false
    }

    /// How many single-byte edits turn the start of `requestSegments` into `plainStart`: each
    /// segment's ``SegmentEdits/distance(_:_:)``, and a segment the request lacks in full.
    private static func edits(from requestSegments: [Substring], toStart plainStart: [String]) -> Int {
        var edits = 0
        for (index, segment) in plainStart.enumerated() {
            edits +=
                index < requestSegments.count
                ? SegmentEdits.distance(requestSegments[index], segment) : max(1, segment.utf8.count)
        }
        return edits
    }

    /// The segments of a path: `/users/42` gives `["users", "42"]`, `/` gives none, a trailing slash an empty last one.
    static func segments(of path: String) -> [Substring] {
        // Most paths are ASCII, where a byte is a character: splitting the bytes, in one pass into
        // one array, gives the same segments as splitting the characters, at a fraction of the
        // cost on every lookup.
        let bytes = path.utf8
        guard bytes.count > 1 else { return [] }
        var segments: [Substring] = []
        segments.reserveCapacity(8)
        var start = bytes.index(after: bytes.startIndex)
        var index = start
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte >= 0x80 { return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) }
            if byte == UInt8(ascii: "/") {
                segments.append(Substring(bytes[start..<index]))
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        segments.append(Substring(bytes[start..<index]))
        return segments
    }

    private static func parseTemplate(_ parts: [Substring], of path: String) throws(DecoyError) -> [PathSegment] {
        func fail(_ reason: String) -> DecoyError { DecoyError.invalidRoute(path: path, reason: reason) }
        var parsed: [PathSegment] = []
        for (index, part) in parts.enumerated() {
            let opens = part.filter { $0 == "{" }.count
            let closes = part.filter { $0 == "}" }.count
            if opens != closes { throw fail("unbalanced braces in segment \"\(part)\"") }
            if opens > 0 {
                guard opens == 1, part.first == "{", part.last == "}" else {
                    throw fail("a template parameter must be a whole segment, as in \"{id}\", not \"\(part)\"")
                }
                let name = part.dropFirst().dropLast()
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw fail("a template parameter needs a name of letters, digits and \"_\", not \"\(part)\"")
                }
                parsed.append(.parameter(String(name)))
            } else if part == "*" {
                parsed.append(.wildcard)
            } else if part == "**" {
                guard index == parts.count - 1 else { throw fail("\"**\" may only be the last segment") }
                parsed.append(.rest)
            } else {
                parsed.append(.literal(String(part)))
            }
        }
        return parsed
    }
}

/// One segment of a template path.
enum PathSegment: Sendable, Hashable {
    /// Exactly this text.
    case literal(String)
    /// Any one segment, named.
    case parameter(String)
    /// Any one segment.
    case wildcard
    /// Any rest of the path, zero or more segments.
    case rest
}

/// A regular expression compiled once, matched against whole strings.
struct CompiledExpression: Sendable, CustomStringConvertible {
    private let expression: NSRegularExpression
    let description: String

    /// `shownAs` is what a near miss names instead of the pattern: the path template it was made from.
    init<Failure: Error>(_ pattern: String, shownAs: String? = nil, orThrow makeError: (String) -> Failure)
        throws(Failure)
    {
        do {
            expression = try NSRegularExpression(pattern: pattern)
        } catch {
            throw makeError("\"\(pattern)\" is not a valid regular expression")
        }
        description = shownAs ?? "/\(pattern)/"
    }

    /// How long one match may run. A pattern such as `(a+)+$` takes time exponential in its
    /// input; past this, the match is given up, so one request cannot hold the server.
    static let timeLimit: Duration = .milliseconds(50)

    /// Whether the whole of `text` matches; `nil` when matching ran past ``timeLimit``, which
    /// every matcher counts as a miss, `doesNotMatch` included.
    func matchesWhole(_ text: String) -> Bool? {
        let range = NSRange(text.startIndex..., in: text)
        let deadline = ContinuousClock.now + Self.timeLimit
        var matches: Bool? = false
        // Progress reports come every few thousand steps of the matcher, where it can be stopped.
        expression.enumerateMatches(in: text, options: [.anchored, .reportProgress], range: range) { match, _, stop in
            if let match {
                matches = match.range == range
                stop.pointee = true
            } else if ContinuousClock.now > deadline {
                matches = nil
                stop.pointee = true
            }
        }
        return matches
    }
}

extension Route {
    /// Throws what is wrong with the route's path, for a stub file to report where it is written.
    package func validatePath() throws(DecoyError) {
        _ = try PathPattern(parsing: self)
    }
}
