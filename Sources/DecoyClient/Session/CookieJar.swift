package import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// A client's cookies, as a URLSession keeps them: taken from `Set-Cookie` fields and sent back
/// in `Cookie` with the requests whose URL they fit. Foundation parses and matches them.
package final class CookieJar: Sendable {
    /// Made on first use: most clients never see a cookie, and an empty jar costs no lookup.
    private let made = Mutex<HTTPCookieStorage?>(nil)

    /// The storage, made now if it was not yet.
    var storage: HTTPCookieStorage {
        made.withLock { made in
            if let made { return made }
            // An ephemeral configuration's storage is in memory and its own, on every platform.
            let storage = URLSessionConfiguration.ephemeral.httpCookieStorage ?? HTTPCookieStorage.shared
            made = storage
            return storage
        }
    }

    /// `request` with the cookies that fit its URL added to its `Cookie` field.
    func addingCookies(to request: HTTPRequest) -> HTTPRequest {
        guard let storage = made.withLock({ $0 }), let url = request.url,
            let value = Self.cookieField(for: url, in: storage)
        else {
            return request
        }
        var request = request
        request.headerFields[.cookie] = request.headerFields[.cookie].map { "\($0); \(value)" } ?? value
        return request
    }

    /// Keeps the cookies `response` sets, for the URL of the request it answers.
    func keepCookies(of response: HTTPResponse, answering request: HTTPRequest) {
        let fields = response.headerFields[values: .setCookie]
        guard !fields.isEmpty, let url = request.url else { return }
        Self.keep(fields, from: url, in: storage)
    }

    /// The `Cookie` field value of the cookies in `storage` that fit `url`, if any.
    package static func cookieField(for url: URL, in storage: HTTPCookieStorage) -> String? {
        guard let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        // The storage's order is its hash table's; RFC 6265 (5.4) puts longer paths first, and
        // the name decides the rest, so that the same cookies make the same field every time.
        let ordered = cookies.sorted { ($1.path.count, $0.name) < ($0.path.count, $1.name) }
        return HTTPCookie.requestHeaderFields(with: ordered)["Cookie"]
    }

    /// Keeps in `storage` the cookies of `setCookieFields` (each a `Set-Cookie` value, or
    /// several joined with commas) that a response from `url` sets.
    package static func keep(_ setCookieFields: [String], from url: URL, in storage: HTTPCookieStorage) {
        let cookies = setCookieFields.flatMap {
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url)
        }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }
}
