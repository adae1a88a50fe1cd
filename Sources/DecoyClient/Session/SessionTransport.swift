import Foundation
import HTTPTypes

/// What URLSession does around each exchange, done by the client over any transport: it follows
/// redirects by the client's policy and keeps and sends its cookies, so that every transport
/// (in-process stubs, a mock server, the network) shows the same thing.
///
/// Each hop is an exchange of its own through the transport, so stub journals record it.
struct SessionTransport: Transport {
    let transport: any Transport
    let redirects: RedirectPolicy
    /// `nil` when the client leaves cookies alone.
    let cookies: CookieJar?

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let (response, data) = try await exchange(request, body: body)
        guard response.status.kind == .redirection, redirects.limit != nil else { return (response, data) }
        return try await follow(response, data, to: request, body: body)
    }

    /// One hop, with the jar's cookies sent and kept.
    private func exchange(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let (response, data) = try await transport.send(cookies?.addingCookies(to: request) ?? request, body: body)
        cookies?.keepCookies(of: response, answering: request)
        return (response, data)
    }

    /// Follows redirects from `response` on, up to the policy's limit.
    ///
    /// Not inlined: the requests it holds would enlarge the frame of every exchange, redirected or not.
    @inline(never)
    private func follow(_ response: HTTPResponse, _ data: Data, to request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        var (response, data, request, body) = (response, data, request, body)
        var redirectsFollowed = 0
        while let limit = redirects.limit, let next = Redirect.request(following: response, to: request, body: body) {
            guard redirectsFollowed < limit else { throw URLError(.httpTooManyRedirects) }
            redirectsFollowed += 1
            (request, body) = next
            (response, data) = try await exchange(request, body: body)
        }
        return (response, data)
    }
}
