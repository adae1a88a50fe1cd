import Atomics
public import Foundation
public import HTTPTypes

/// A request as the stub engine sees it, whichever way it arrived: in-process or over the wire.
public struct StubRequest: Sendable {
    /// The parts, shared by every copy of the request.
    private final class Storage: Sendable {
        let header: Parts
        /// The header fields, made from the raw ones on first read: most requests a server answers
        /// are matched and journaled without anyone reading a header, and checking names costs
        /// more than the rest of the request.
        // Pays: 5.8% of server CPU per matched request against a Mutex, which costs an allocation
        // and a lock's set-up for every request (scripts/benchmarks server-cpu, 9 rounds).
        private let parsedHeaderFields = ManagedAtomicLazyReference<ParsedHeaderFields>()

        init(_ header: Parts) {
            self.header = header
        }

        var headerFields: HTTPFields {
            if let checked = header.checkedHeaderFields { return checked }
            if let parsed = parsedHeaderFields.load() { return parsed.fields }
            // Names that are not valid tokens cannot be represented, and no matcher could name them.
            let fields = HTTPFields(
                header.rawHeaderFields.compactMap { raw in
                    HTTPField.Name(raw.name).map { HTTPField(name: $0, value: raw.value) }
                })
            // Two threads reading at once may both parse; one result is kept, and both are equal.
            return parsedHeaderFields.storeIfNilThenLoad(ParsedHeaderFields(fields)).fields
        }
    }

    /// Header fields parsed on first read, as a reference the lazy slot can hold.
    private final class ParsedHeaderFields: Sendable {
        let fields: HTTPFields
        init(_ fields: HTTPFields) { self.fields = fields }
    }

    private struct Parts: Sendable {
        let method: HTTPRequest.Method
        let target: String
        let path: String
        let query: String?
        let body: Data
        let rawHeaderFields: [(name: String, value: String)]
        /// Fields that came checked, which need no parsing.
        let checkedHeaderFields: HTTPFields?

        init(
            method: HTTPRequest.Method, target: String, headerFields: HTTPFields?,
            rawHeaderFields: [(name: String, value: String)], body: Data
        ) {
            self.method = method
            self.target = target
            self.body = body
            self.rawHeaderFields = rawHeaderFields
            checkedHeaderFields = headerFields
            // One pass over the bytes finds both; most targets have neither, and their path is
            // the target itself, shared rather than copied.
            var offset: Int?
            var isEncoded = false
            var target = target
            target.withUTF8 { bytes in
                for (index, byte) in bytes.enumerated() {
                    if byte == UInt8(ascii: "%") { isEncoded = true }
                    if byte == UInt8(ascii: "?") { offset = index; break }
                }
            }
            let mark = offset.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
            let rawPath = mark.map { target[..<$0] } ?? target[...]
            query = mark.map { String(target[target.index(after: $0)...]) }
            if isEncoded {
                path = rawPath.removingPercentEncoding ?? String(rawPath)
            } else {
                path = mark == nil ? target : String(rawPath)
            }
        }
    }

    private let storage: Storage

    /// The request method.
    public var method: HTTPRequest.Method { storage.header.method }
    /// The request target exactly as sent: the path, then `?` and the query when there is one.
    public var target: String { storage.header.target }
    /// The path, percent-decoded, without the query.
    public var path: String { storage.header.path }
    /// The raw query, without the leading `?`; `nil` when the target has none.
    public var query: String? { storage.header.query }
    /// Every header field, repeated ones included.
    public var headerFields: HTTPFields { storage.headerFields }
    /// The complete body; empty when there is none.
    public var body: Data { storage.header.body }

    /// Creates a request from its parts; `target` is the path and query as they appear on the wire.
    public init(method: HTTPRequest.Method, target: String, headerFields: HTTPFields = [:], body: Data = Data()) {
        storage = Storage(
            Parts(method: method, target: target, headerFields: headerFields, rawHeaderFields: [], body: body))
    }

    /// Creates a request from header fields as they came off the wire, names not yet checked;
    /// ``headerFields`` checks them when first read, leaving out any name that is not a valid token.
    package init(
        method: HTTPRequest.Method, target: String, rawHeaderFields: [(name: String, value: String)], body: Data
    ) {
        storage = Storage(
            Parts(method: method, target: target, headerFields: nil, rawHeaderFields: rawHeaderFields, body: body))
    }

    /// Creates the request an `HTTPRequest` with `body` stands for.
    public init(_ request: HTTPRequest, body: Data?) {
        self.init(
            method: request.method, target: request.path ?? "/", headerFields: request.headerFields,
            body: body ?? Data())
    }

    /// The query as decoded name–value pairs, in order; `+` counts as a space, as forms send it.
    public var queryItems: [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return URLQueryItem(
                name: Self.decodeFormComponent(parts[0]),
                value: parts.count > 1 ? Self.decodeFormComponent(parts[1]) : nil)
        }
    }

    /// Every value the query gives for `name`.
    public func queryValues(_ name: String) -> [String] {
        guard let query, !query.isEmpty else { return [] }
        // Read in place, as ``queryItems`` would give them, without making an item of each pair.
        var values: [String] = []
        // Split by bytes: `&` and `=` are ASCII.
        // Pays: scripts/benchmarks instructions, "templated answer": a split by characters cost ~6k more.
        Substring(query).forEachPart(separatedBy: "&") { pair in
            let equals = pair.utf8.firstIndex(of: UInt8(ascii: "="))
            if Self.formComponent(pair[..<(equals ?? pair.endIndex)], is: name) {
                values.append(equals.map { Self.decodeFormComponent(pair[pair.utf8.index(after: $0)...]) } ?? "")
            }
            return true
        }
        return values
    }

    /// Every value the `Cookie` header fields give for the cookie `name`.
    public func cookieValues(_ name: String) -> [String] {
        cookies.compactMap { $0.name == name ? $0.value ?? "" : nil }
    }

    /// Every cookie the `Cookie` header fields send, in order, names and values without the spaces
    /// around them; `value` is `nil` for a pair without `=`.
    package var cookies: [(name: String, value: String?)] {
        headerFields[values: .cookie].flatMap { $0.split(separator: ";") }.map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (
                parts[0].trimmingCharacters(in: .whitespaces),
                parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
            )
        }
    }

    /// Every value of the parameter `name` in a form body, `application/x-www-form-urlencoded`:
    /// `+` is a space and escapes are decoded, as browsers and URLSession encode forms.
    public func formValues(_ name: String) -> [String] {
        bodyText.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(
                Self.decodeFormComponent)
            return parts[0] == name ? (parts.count > 1 ? parts[1] : "") : nil
        }
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as JSON into `type`.
    public func decodeBody<Body: Decodable>(as type: Body.Type, decoder: JSONDecoder = JSONDecoder()) throws -> Body {
        try decoder.decode(type, from: body)
    }

    /// The path split into its segments, so `/users/42` gives `["users", "42"]` and `/` gives none.
    var pathSegments: [Substring] {
        PathPattern.segments(of: path)
    }

    /// A query or form component decoded: `+` is a space and escapes are decoded.
    private static func decodeFormComponent(_ component: Substring) -> String {
        // Most components are plain; Foundation's replacing and decoding, each a trip through
        // NSString on Linux, are for those that are not.
        // Pays: scripts/benchmarks templates, where they were 12% of a templated answer's server CPU.
        guard isEncoded(component) else { return String(component) }
        let spaced = component.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Whether the query or form component decodes to `text`; a plain one is compared as it is.
    // Pays: scripts/benchmarks instructions, "templated answer", against making a string of each name.
    private static func formComponent(_ component: Substring, is text: String) -> Bool {
        isEncoded(component) ? decodeFormComponent(component) == text : component == text
    }

    private static func isEncoded(_ component: Substring) -> Bool {
        component.utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }
    }
}

extension StubRequest: CustomStringConvertible {
    /// `METHOD target`, as a request line shows it.
    public var description: String { "\(method) \(target)" }
}
