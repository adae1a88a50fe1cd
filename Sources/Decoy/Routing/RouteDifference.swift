import HTTPTypes

/// One way a request differs from a route, found without putting it into words.
///
/// Near misses are ranked by how many of these they have, so finding them must be cheap; only
/// the misses that are shown get their words, from ``words(for:)``.
enum RouteDifference: Sendable {
    /// The path does not match the route's regular expression.
    case pathExpression(CompiledExpression)
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
        case .pathExpression(let expression):
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
/// a ``DifferenceCount`` only counts them, so that ranking near misses makes none it won't show.
protocol DifferenceSink {
    mutating func add(_ difference: @autoclosure () -> RouteDifference)
}

extension Array: DifferenceSink where Element == RouteDifference {
    mutating func add(_ difference: @autoclosure () -> RouteDifference) {
        append(difference())
    }
}

/// Counts differences without making them.
struct DifferenceCount: DifferenceSink {
    private(set) var count = 0

    mutating func add(_ difference: @autoclosure () -> RouteDifference) {
        count += 1
    }
}

/// How near misses are ranked wherever they are shown: the closest routes in the unmatched 404
/// and the near misses in DecoyTesting's `expect…` messages.
package enum Closeness {
    /// `candidates` with their differences, nearest first: the fewest differences, every one
    /// counted (each path segment, the number of segments, the method, each matcher), and among
    /// equals the order given, so that the same candidates always come out the same. Candidates
    /// without a difference are not misses and are left out.
    package static func ranked<Candidate, Differences: Collection>(
        _ candidates: some Sequence<Candidate>, by differences: (Candidate) -> Differences
    ) -> [(candidate: Candidate, differences: Differences)] {
        nearest(candidates.map { (candidate: $0, differences: differences($0)) }, limit: .max) { $0.differences.count }
    }

    /// The `limit` nearest of `candidates`, ranked as ``ranked(_:by:)`` ranks them, from the number
    /// of their differences alone: for a caller that words only the differences of those it shows.
    package static func nearest<Candidate>(
        _ candidates: some Sequence<Candidate>, limit: Int, byCount count: (Candidate) -> Int
    ) -> [Candidate] {
        var counted: [(candidate: Candidate, count: Int, offset: Int)] = []
        counted.reserveCapacity(candidates.underestimatedCount)
        for (offset, candidate) in candidates.enumerated() {
            let differences = count(candidate)
            if differences > 0 { counted.append((candidate, differences, offset)) }
        }
        counted.sort { ($0.count, $0.offset) < ($1.count, $1.offset) }
        return counted.prefix(limit).map(\.candidate)
    }
}
