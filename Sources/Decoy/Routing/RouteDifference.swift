import HTTPTypes

/// One way a request differs from a route, found without putting it into words.
///
/// Near misses are ranked by how many of these they have, so finding them must be cheap; only
/// the misses that are shown get their words, from ``words(for:)``.
enum RouteDifference: Sendable {
    /// The path does not match the route's regular expression; `edits` says how far the path is
    /// from the plain text the expression starts with, plus one for the rest.
    case pathExpression(CompiledExpression, edits: Int)
    /// Matching the path against the route's regular expression took too long and was given up.
    case pathExpressionGaveUp(CompiledExpression)
    /// A literal segment of the route's path differs (`index` counts from 0).
    case segment(index: Int, received: Substring, expected: String)
    /// The request has another number of path segments; `orMore` when the route ends in `**`.
    case segmentCount(expected: Int, orMore: Bool, received: Int)
    /// The request's method is not the route's.
    case method(received: HTTPRequest.Method, expected: HTTPRequest.Method)
    /// A matcher on the query, header fields, cookies or body fails.
    case matcher(CompiledMatcher)
    /// The route's scenario is in another state than the route requires.
    case scenario(name: String, state: String, required: String)

    /// How many single-byte edits the difference amounts to, at least one: a path segment's
    /// distance from the route's, a path's from the plain start of the route's expression, and
    /// one for any other difference.
    var edits: Int {
        switch self {
        case .segment(_, let received, let expected): max(1, SegmentEdits.distance(received, expected))
        case .pathExpression(_, let edits): edits
        case .pathExpressionGaveUp, .segmentCount, .method, .matcher, .scenario: 1
        }
    }

    /// The difference in words, as the 404's closest routes and the journal's near misses say it.
    func words(for request: StubRequest) -> String {
        var text: [UInt8] = []
        appendWords(for: request, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the difference in words to `text`, as UTF-8: the unmatched 404 words its closest
    /// routes straight into its body's bytes, without a string for each difference.
    func appendWords(for request: StubRequest, to text: inout [UInt8]) {
        switch self {
        case .pathExpression(let expression, _):
            text.append(utf8: "the path does not match \(expression)")
        case .pathExpressionGaveUp(let expression):
            text.append(utf8: "matching the path against \(expression) took too long")
        case .segment(let index, let received, let expected):
            // Appended piece by piece: an interpolation of a `Substring` goes through the generic
            // `TextOutputStreamable` path, which costs more than the rest of the words.
            text.append(utf8: "path segment ")
            text.append(utf8: String(index + 1))
            text.append(utf8: " is \"")
            text.append(utf8: received)
            text.append(utf8: "\", the route expects \"")
            text.append(utf8: expected)
            text.append(utf8: "\"")
        case .segmentCount(let expected, let orMore, let received):
            text.append(utf8: "the route expects ")
            if orMore { text.append(utf8: "at least ") }
            text.append(utf8: String(expected))
            text.append(utf8: " path segments, the request has ")
            text.append(utf8: String(received))
        case .method(let received, let expected):
            text.append(utf8: "the method is ")
            text.append(utf8: received.rawValue)
            text.append(utf8: ", the route expects ")
            text.append(utf8: expected.rawValue)
        case .matcher(let matcher):
            text.append(utf8: matcher.mismatch(in: request) ?? "")
        case .scenario(let name, let state, let required):
            text.append(utf8: "scenario \"\(name)\" is in state \"\(state)\", the route expects \"\(required)\"")
        }
    }
}

/// Where the differences between a request and a route go as they are found: an array keeps them,
/// a ``DifferenceCount`` only counts them, and a ``Closeness/Distance`` measures them without
/// keeping them, so that ranking near misses makes none it won't show.
protocol DifferenceSink {
    mutating func add(_ difference: @autoclosure () -> RouteDifference)
}

extension Array: DifferenceSink where Element == RouteDifference {
    mutating func add(_ difference: @autoclosure () -> RouteDifference) {
        append(difference())
    }
}

/// Counts differences without making them, to tell whether there are any.
struct DifferenceCount: DifferenceSink {
    private(set) var count = 0

    mutating func add(_ difference: @autoclosure () -> RouteDifference) {
        count += 1
    }
}

/// How near misses are ranked wherever they are shown: the closest routes in the unmatched 404
/// and the near misses in DecoyTesting's `expect…` messages and the admin API's.
package enum Closeness {
    /// How far a request is from a route: the number of differences, every one counted (each
    /// path segment, the number of segments, the method, each matcher), then how many single-byte
    /// edits they amount to, so that among misses with as many differences a one-letter typo in a
    /// path segment comes first.
    package struct Distance: Comparable, DifferenceSink {
        /// How many differences.
        package private(set) var differences = 0
        /// How many edits they amount to; at least ``differences``.
        package private(set) var edits = 0

        /// No difference yet.
        package init() {}

        mutating func add(_ difference: @autoclosure () -> RouteDifference) {
            differences += 1
            edits += difference().edits
        }

        /// Fewer differences first, then fewer edits.
        package static func < (lhs: Distance, rhs: Distance) -> Bool {
            (lhs.differences, lhs.edits) < (rhs.differences, rhs.edits)
        }
    }

    /// `candidates`, the requests `request` gives of them, ranked by their distance from
    /// `pattern`, nearest first, each with its differences in words; among equals the order given,
    /// so that the same candidates always come out the same. Candidates without a difference are
    /// not misses and are left out.
    package static func ranked<Candidate>(
        _ candidates: some Sequence<Candidate>, from pattern: RequestPattern, request: (Candidate) -> StubRequest
    ) -> [(candidate: Candidate, differences: [String])] {
        let measured = candidates.map { candidate in
            let stubRequest = request(candidate)
            let differences = pattern.differences(stubRequest, segments: stubRequest.pathSegments)
            return (candidate: candidate, request: stubRequest, differences: differences)
        }
        return nearest(measured, limit: .max) { measured in
            measured.differences.reduce(into: Distance()) { $0.add($1) }
        }
        .map { miss in (miss.candidate, miss.differences.map { $0.words(for: miss.request) }) }
    }

    /// The `limit` nearest of `candidates`, ranked as ``ranked(_:from:request:)`` ranks them, from
    /// their distance alone: for a caller that words only the differences of those it shows.
    package static func nearest<Candidate>(
        _ candidates: some Sequence<Candidate>, limit: Int, by distance: (Candidate) -> Distance
    ) -> [Candidate] {
        var measured: [(candidate: Candidate, distance: Distance, offset: Int)] = []
        measured.reserveCapacity(candidates.underestimatedCount)
        for (offset, candidate) in candidates.enumerated() {
            let distance = distance(candidate)
            if distance.differences > 0 { measured.append((candidate, distance, offset)) }
        }
        measured.sort { ($0.distance, $0.offset) < ($1.distance, $1.offset) }
        return measured.prefix(limit).map(\.candidate)
    }
}
