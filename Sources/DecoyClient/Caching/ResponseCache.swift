import Foundation
public import HTTPTypes

/// Keeps responses for ``APIClient`` to serve again without the network, as a ``CachePolicy`` says.
///
/// Caching is best-effort: an implementation that cannot read or write (a full disk) answers
/// `nil` or drops the response rather than failing the request.
public protocol ResponseCache: Sendable {
    /// The response stored for `key` and not expired, if any.
    func response(for key: CacheKey) async -> CachedResponse?
    /// Stores `response` for `key`, replacing what was there.
    func store(_ response: CachedResponse, for key: CacheKey) async
    /// Forgets the response for `key`.
    func removeResponse(for key: CacheKey) async
    /// Forgets every response.
    func removeAll() async
}

/// What a cached response is filed under: the request's method and full URL.
///
/// Header fields are not part of it (no `Vary`): a cache shared by several signed-in users
/// should be emptied when the user changes.
public struct CacheKey: Hashable, Sendable, Codable {
    /// The request method, such as `GET`.
    public let method: String
    /// The absolute URL, query included.
    public let url: String

    /// The key of `request`.
    public init(_ request: HTTPRequest) {
        method = request.method.rawValue
        url = "\(request.scheme ?? "")://\(request.authority ?? "")\(request.path ?? "/")"
    }
}

/// A response as a cache keeps it: head and complete body.
public struct CachedResponse: Sendable, Codable {
    /// Status and header fields.
    public let response: HTTPResponse
    /// The body.
    public let body: Data

    /// Creates an entry from a response and its body.
    public init(response: HTTPResponse, body: Data) {
        self.response = response
        self.body = body
    }
}
