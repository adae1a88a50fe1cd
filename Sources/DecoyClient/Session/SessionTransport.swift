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
        var (request, body) = (request, body)
        var redirectsFollowed = 0
        while true {
            let (response, data) = try await transport.send(cookies?.addingCookies(to: request) ?? request, body: body)
            cookies?.keepCookies(of: response, answering: request)
            guard let limit = redirects.limit, response.status.kind == .redirection,
                let next = Redirect.request(following: response, to: request, body: body)
            else { return (response, data) }
            guard redirectsFollowed < limit else { throw URLError(.httpTooManyRedirects) }
            redirectsFollowed += 1
            (request, body) = next
        }
    }
}
