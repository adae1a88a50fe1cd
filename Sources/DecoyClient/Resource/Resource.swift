public import Foundation
public import HTTPTypes

/// One endpoint of an API and the type its response decodes to: the one way to describe what to
/// send, alone or as the ``Request/resource`` of a request type.
///
/// A resource is a plain value: build it with a static constructor, adjust it with the
/// modifiers, and send it with ``APIClient/send(_:)-(Resource<Value>)``. `Resource<Void>` ignores
/// the response body, `String` and `Data` take it as text or bytes, and any other `Decodable`
/// value is decoded as JSON; a value of another type needs its own step, ``decoded(by:)``.
///
/// ```swift
/// extension Resource where Value == [User] {
///     static let activeUsers = Resource.get("/users", query: ["active": "true"])
/// }
/// ```
public struct Resource<Value>: Sendable {
    /// The request method.
    public var method: HTTPRequest.Method
    /// The path, relative to the client's base URL (starting with `/`); or a whole URL
    /// (`https://search.example.com/v1/search`) for another host, to which the client's default
    /// header fields and query items are not sent. Either is written as it reads, not
    /// percent-encoded: the client encodes it, a whole URL's query included.
    public var path: String
    /// Query items sent after the client's default ones, replacing those of the same name.
    public var query: [URLQueryItem]
    /// Header fields that replace the client's defaults of the same name.
    public var headerFields: HTTPFields
    /// The request body, if any.
    public var body: RequestBody?
    /// Whether ``query`` and ``headerFields`` go after the client's items of the same name
    /// instead of replacing them.
    var appendsToDefaults = false
    /// Where the value sits in a JSON response.
    var envelope = Envelope.whole
    /// A decoding step that replaces the client's decoding for this resource.
    var decode: (@Sendable (Data, HTTPResponse, DecodingContext) throws -> Value)?
    /// Client settings this resource overrides.
    var options = RequestOptions()

    /// Creates a resource; prefer the static constructors such as ``get(_:query:headerFields:)``.
    public init(
        method: HTTPRequest.Method, path: String, query: [URLQueryItem] = [], headerFields: HTTPFields = [:],
        body: RequestBody? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headerFields = headerFields
        self.body = body
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

    /// A copy that turns an accepted response into the value with `decode` instead of the client's
    /// decoding; an error it throws fails the request with ``APIError/decoding(_:)``.
    public func decoded(by decode: @escaping @Sendable (Data, HTTPResponse) throws -> Value) -> Resource {
        with { $0.decode = { data, response, _ in try decode(data, response) } }
    }

    /// A copy that decodes with `decoder` instead of the client's.
    public func decoder(_ decoder: JSONDecoder) -> Resource {
        with { $0.options.decoder = decoder }
    }

    /// A copy whose top-level arrays drop the elements that do not decode (`true`) or fail with
    /// them (`false`), whatever the client's configuration says.
    public func lossyArrays(_ lossy: Bool = true) -> Resource {
        with { $0.options.lossyArrays = lossy }
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
    public func query(@ListBuilder<URLQueryItem> _ items: () -> [URLQueryItem]) -> Resource {
        with { $0.query += items() }
    }

    /// A copy with more header fields, built with `if` and `for` as needed.
    public func headers(@ListBuilder<HTTPField> _ fields: () -> HTTPFields) -> Resource {
        with { $0.headerFields.append(contentsOf: fields()) }
    }

    /// A copy with one more header field.
    public func header(_ name: HTTPField.Name, _ value: String) -> Resource {
        with { $0.headerFields[name] = value }
    }

    /// A copy whose query items and header fields are sent after the client's of the same name
    /// instead of replacing them.
    public func appendingToDefaults() -> Resource {
        with { $0.appendsToDefaults = true }
    }

    /// A copy changed by `change`: every modifier is one.
    func with(_ change: (inout Resource) -> Void) -> Resource {
        var copy = self
        change(&copy)
        return copy
    }
}
