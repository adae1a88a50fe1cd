public import Foundation
public import HTTPTypes

/// An endpoint that knows its whole URL and how to parse its answer: send it through an
/// ``APIClient`` (whose base URL it ignores) or load it through any ``Transport``.
///
/// Every requirement but `host`, `path` and, unless `Output` is `Decodable`, `parse` has a
/// default. Stored ``Query`` and ``Header`` properties join the query and header fields.
///
/// ```swift
/// struct Search: Endpoint {
///     typealias Output = [Repository]
///     var host: String { "api.example.com" }
///     var path: String { "/search" }
///     @Query(name: "q") var text = ""
///     @Header(.accept) var accept = "application/json"
/// }
/// ```
public protocol Endpoint: Sendable {
    /// What a response parses to.
    associatedtype Output

    /// `https` unless said otherwise.
    var scheme: String { get }
    /// The host name.
    var host: String { get }
    /// The port; `nil` for the scheme's default.
    var port: Int? { get }
    /// The path, starting with `/`.
    var path: String { get }
    /// `GET` unless said otherwise.
    var method: HTTPRequest.Method { get }
    /// Query items, after those of the ``Query`` properties.
    var queryItems: [URLQueryItem] { get }
    /// Header fields, after those of the ``Header`` properties.
    var headerFields: HTTPFields { get }
    /// The request body, encoded by a default `JSONEncoder` when it is a value.
    var body: RequestBody? { get }

    /// A last look at the request before it is sent, such as to sign it.
    func prepare(request: HTTPRequest) -> HTTPRequest

    /// Turns an accepted response into the output; an error it throws fails the request with
    /// ``APIError/decoding(_:)``.
    func parse(data: Data, response: HTTPResponse) throws -> Output
}

extension Endpoint {
    /// `https`.
    public var scheme: String { "https" }
    /// The scheme's default port.
    public var port: Int? { nil }
    /// `GET`.
    public var method: HTTPRequest.Method { .get }
    /// None besides the ``Query`` properties.
    public var queryItems: [URLQueryItem] { [] }
    /// None besides the ``Header`` properties.
    public var headerFields: HTTPFields { [:] }
    /// No body.
    public var body: RequestBody? { nil }
    /// The request unchanged.
    public func prepare(request: HTTPRequest) -> HTTPRequest { request }
}

extension Endpoint where Output: Decodable {
    /// Decodes the body as JSON with a default decoder (an empty body is `nil` for an optional output).
    public func parse(data: Data, response: HTTPResponse) throws -> Output {
        try DecodingContext(decoder: JSONDecoder()).decode(Output.self, from: data)
    }
}

extension Endpoint {
    /// The request to send: the URL from scheme, host, port, path and query, the header fields,
    /// the encoded body, then ``prepare(request:)``.
    func httpRequest() throws(APIError) -> (HTTPRequest, Data?) {
        let wrappers = Mirror(reflecting: self).children.map(\.value)
        var fields = HTTPFields(wrappers.flatMap { ($0 as? any HeaderFieldsProviding)?.headerFieldList ?? [] })
        fields.append(contentsOf: headerFields)
        let query = wrappers.flatMap { ($0 as? any QueryItemsProviding)?.queryItemList ?? [] } + queryItems
        let data = try RequestBody.encode(
            body, with: JSONEncoder(), into: &fields, describing: "\(method) \(host)\(path)")
        let target = BaseTarget(scheme: scheme, authority: port.map { "\(host):\($0)" } ?? host)
        let request = HTTPRequest(
            method: method, scheme: scheme, authority: target.authority, path: target.path(path, query: query),
            headerFields: fields)
        return (prepare(request: request), data)
    }
}
