public import Foundation
public import HTTPTypes

/// One endpoint of an API and the type its response decodes to.
///
/// A resource is a plain value: build it with a static constructor, adjust it with the
/// modifiers, and send it with ``APIClient/send(_:)-(Resource<Value>)``. `Resource<Void>` ignores the
/// response body.
///
/// ```swift
/// extension Resource where Value == [User] {
///     static let activeUsers = Resource.get("/users", query: ["active": "true"])
/// }
/// ```
public struct Resource<Value>: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// The path, relative to the client's base URL; starts with `/`.
    public var path: String
    /// Query items sent after the client's default ones, replacing those of the same name.
    public var query: [URLQueryItem]
    /// Header fields that replace the client's defaults of the same name.
    public var headerFields: HTTPFields
    /// Whether ``query`` and ``headerFields`` replace the client's items of the same name or
    /// are sent besides them.
    public var defaultsMerge = DefaultsMerge.replace
    /// The request body, if any.
    public var body: RequestBody?
    /// Where the value sits in a JSON response.
    public var envelope: Envelope
    /// A decoding step that replaces the client's JSON decoding for this resource.
    public var decode: (@Sendable (Data, DecodingContext) throws -> Value)?
    /// Client settings this resource overrides.
    public var options = RequestOptions()

    /// Creates a resource; prefer the static constructors such as ``get(_:query:headerFields:)``.
    public init(
        method: HTTPRequest.Method,
        path: String,
        query: [URLQueryItem] = [],
        headerFields: HTTPFields = [:],
        body: RequestBody? = nil,
        envelope: Envelope = .whole,
        decode: (@Sendable (Data, DecodingContext) throws -> Value)? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = body
        self.envelope = envelope
        self.decode = decode
    }

    /// A copy that decodes the value found under `keys` instead of the whole body.
    public func rootKeys(_ keys: String...) -> Resource {
        with { $0.envelope = .rootKeys(keys) }
    }

    /// A copy that decodes the value under the only key of a one-key envelope such as
    /// `{"user": {…}}`, whatever the key is called; when the object has more keys, under `otherwise`.
    public func unwrapped(otherwise: String? = nil) -> Resource {
        with { $0.envelope = .singleKey(otherwise: otherwise) }
    }

    /// A copy that decodes with `decode` instead of the client's JSON decoder.
    public func decoded(by decode: @escaping @Sendable (Data, DecodingContext) throws -> Value) -> Resource {
        with { $0.decode = decode }
    }

    /// A copy that decodes with `decoder` instead of the client's.
    public func decoder(_ decoder: JSONDecoder) -> Resource {
        with { $0.options.decoder = decoder }
    }

    /// A copy whose top-level arrays decode as `arrays` says instead of as the client's configuration says.
    public func arrayDecoding(_ arrays: ArrayDecoding) -> Resource {
        with { $0.options.arrayDecoding = arrays }
    }

    /// A copy cached as `policy` says instead of as the client's configuration says.
    public func cachePolicy(_ policy: CachePolicy) -> Resource {
        with { $0.options.cachePolicy = policy }
    }

    /// A copy whose attempts may each take at most `timeout`.
    public func timeout(_ timeout: Duration) -> Resource {
        with { $0.options.timeout = timeout }
    }

    /// A copy retried by `policy` instead of the client's policy.
    public func retry(_ policy: RetryPolicy) -> Resource {
        with { $0.options.retry = policy }
    }

    /// A copy whose logs show the values of these header fields, query parameters or JSON keys.
    public func unredacted(_ names: String...) -> Resource {
        with { $0.options.unredacted.formUnion(names) }
    }

    /// A copy with more query items, built with `if` and `for` as needed.
    public func query(@QueryItemsBuilder _ items: () -> [URLQueryItem]) -> Resource {
        with { $0.query += items() }
    }

    /// A copy with more header fields, built with `if` and `for` as needed.
    public func headers(@HeaderFieldsBuilder _ fields: () -> HTTPFields) -> Resource {
        with { $0.headerFields.append(contentsOf: fields()) }
    }

    /// A copy with one more header field.
    public func header(_ name: HTTPField.Name, _ value: String) -> Resource {
        with { $0.headerFields[name] = value }
    }

    /// A copy whose query items and header fields meet the client's of the same name as `merge` says.
    public func defaultsMerge(_ merge: DefaultsMerge) -> Resource {
        with { $0.defaultsMerge = merge }
    }

    /// A copy changed by `change`: every modifier is one.
    private func with(_ change: (inout Resource) -> Void) -> Resource {
        var copy = self
        change(&copy)
        return copy
    }
}
