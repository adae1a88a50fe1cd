import Foundation
import HTTPTypes

/// What URLSession does around each exchange, done by the client over any transport: it follows
/// redirects by the client's policy and keeps and sends its cookies, so that every transport
/// (in-process stubs, a mock server, the network) shows the same thing.
///
/// Each hop is an exchange of its own through the transport, so stub journals record it.
struct SessionTransport: Transport {
    let transport: any Transport
    /// How many redirects in a row are followed; `nil` follows none.
    let redirectLimit: Int?
    /// `nil` when the client leaves cookies alone.
    let cookies: CookieJar?

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await following(request, body: body) { try await transport.send($0, body: $1) }
    }

    /// A redirect's body is dropped unread: the session waits for no more than its head.
    func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        try await following(
            request, body: body, dropping: { $0.cancel() }, { try await transport.stream($0, body: $1) })
    }

    /// Exchanges `request` through `exchange`, then each redirect the policy follows, with cookies.
    private func following<Sent, Received>(
        _ request: HTTPRequest, body: Sent?, dropping drop: (Received) -> Void = { _ in },
        _ exchange: (HTTPRequest, Sent?) async throws -> (HTTPResponse, Received)
    ) async throws -> (HTTPResponse, Received) {
        var (request, body) = (request, body)
        var redirectsFollowed = 0
        while true {
            let (response, received) = try await exchange(cookies?.addingCookies(to: request) ?? request, body)
            cookies?.keepCookies(of: response, answering: request)
            guard let limit = redirectLimit, response.status.kind == .redirection,
                let next = Redirect.request(following: response, to: request, body: body)
            else { return (response, received) }
            drop(received)
            guard redirectsFollowed < limit else { throw URLError(.httpTooManyRedirects) }
            redirectsFollowed += 1
            (request, body) = next
        }
    }
}
