import Foundation
package import HTTPTypes

/// How a redirect turns into the request that follows it, as URLSession does; shared by the
/// client and by `StubURLProtocol`, so that every serving follows a redirect the same way.
package enum Redirect {
    /// The request that follows `response` to `request` (sent with `body`), or `nil` when
    /// `response` is not a redirect to follow: not `301`, `302`, `303`, `307` or `308`, or no
    /// `Location` that makes a URL.
    package static func request<Body>(following response: HTTPResponse, to request: HTTPRequest, body: Body?) -> (
        HTTPRequest, Body?
    )? {
        guard [301, 302, 303, 307, 308].contains(response.status.code),
            let location = response.headerFields[.location],
            let from = request.url,
            let url = URL(string: location, relativeTo: from)?.absoluteURL
        else { return nil }
        var next = HTTPRequest(method: request.method, url: url, headerFields: request.headerFields)
        let becomesGet =
            response.status.code == 303
            ? request.method != .head : response.status.code <= 302 && request.method == .post
        guard becomesGet else { return (next, body) }
        next.method = .get
        // The fields that describe a body go with it (Fetch, "HTTP-redirect fetch").
        for name in [HTTPField.Name.contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation] {
            next.headerFields[name] = nil
        }
        return (next, nil)
    }
}
