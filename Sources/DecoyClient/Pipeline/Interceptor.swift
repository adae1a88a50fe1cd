public import Foundation
public import HTTPTypes

/// A step between the client and its transport that may adapt a request, replace it, or
/// answer it without the transport.
///
/// Interceptors run in the order the configuration lists them; each calls `next` to pass the
/// (possibly changed) request on, or returns an answer of its own.
///
/// ```swift
/// struct Authenticating: Interceptor {
///     let token: @Sendable () async throws -> String
///     func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data) {
///         var request = request
///         request.headerFields[.authorization] = "Bearer \(try await token())"
///         return try await next(request, body)
///     }
/// }
/// ```
public protocol Interceptor: Sendable {
    /// Passes a request on to the rest of the pipeline.
    typealias Next = @Sendable (HTTPRequest, Data?) async throws -> (HTTPResponse, Data)

    /// Handles `request`, usually by calling `next` with it or with a changed copy.
    func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data)
}

/// An interceptor that changes each request before passing it on.
public struct RequestAdapter: Interceptor {
    private let adapt: @Sendable (inout HTTPRequest, inout Data?) async throws -> Void

    /// Creates an adapter from a closure that edits the request and its body in place.
    public init(_ adapt: @escaping @Sendable (inout HTTPRequest, inout Data?) async throws -> Void) {
        self.adapt = adapt
    }

    /// Adapts, then passes on.
    public func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data) {
        var request = request
        var body = body
        try await adapt(&request, &body)
        return try await next(request, body)
    }
}
