import Decoy
import Foundation
import HTTPTypes

/// One admin endpoint: its method, its path under `/__admin` and what answers it. The table of
/// them, ``AdminAPI/routes``, is the admin API: a request is answered by the first row whose method
/// and path fit; a path some row fits with another method is `405`; a path no row fits is `404`.
struct AdminRoute: Sendable {
    /// What answers a request to the endpoint.
    enum Handling: Sendable {
        /// The handler's reply (or stream).
        case served(@Sendable (AdminAPI, AdminCall) -> Reply)
        /// The reply of a handler that waits, as `wait-for-count` does, on the admin task.
        case awaited(@Sendable (AdminAPI, AdminCall) async -> StubResponse)
        /// WireMock's endpoint, which Decoy answers `501` with the reason, whatever the method.
        case unserved(reason: String)
    }

    /// The method; `nil` for any.
    let method: HTTPRequest.Method?
    /// The path's segments under `/__admin`: a literal, `{name}` for any one segment, or a last `**`
    /// for the rest, however many segments, none included.
    let pattern: [Substring]
    /// Whether a request needs no token: the dashboard's files hold no data; the page asks for the
    /// token and sends it with every call it makes.
    let isOpen: Bool
    let handling: Handling

    /// An endpoint whose handler gives a reply.
    init(
        _ method: HTTPRequest.Method, _ pattern: String, isOpen: Bool = false,
        _ reply: @escaping @Sendable (AdminAPI, AdminCall) -> StubResponse
    ) {
        self.init(method, pattern, isOpen: isOpen, streaming: { .whole(reply($0, $1)) })
    }

    /// An endpoint whose handler gives a reply or a stream.
    init(
        _ method: HTTPRequest.Method?, _ pattern: String, isOpen: Bool = false,
        streaming handler: @escaping @Sendable (AdminAPI, AdminCall) -> Reply
    ) {
        self.method = method
        self.pattern = pattern.split(separator: "/")
        self.isOpen = isOpen
        handling = .served(handler)
    }

    /// An endpoint whose handler waits before it replies.
    init(
        _ method: HTTPRequest.Method, _ pattern: String,
        awaiting reply: @escaping @Sendable (AdminAPI, AdminCall) async -> StubResponse
    ) {
        self.method = method
        self.pattern = pattern.split(separator: "/")
        isOpen = false
        handling = .awaited(reply)
    }

    /// WireMock's endpoint under `pattern` that Decoy does not serve, and why.
    init(unserved pattern: String, reason: String) {
        method = nil
        self.pattern = pattern.split(separator: "/")
        isOpen = false
        handling = .unserved(reason: reason)
    }

    /// The values of the pattern's `{…}` segments when `path` fits it; `nil` when it does not.
    func parameters(of path: [Substring]) -> [String]? {
        var parameters: [String] = []
        for (index, segment) in pattern.enumerated() {
            if segment == "**" { return parameters }
            guard index < path.count else { return nil }
            if segment.first == "{" {
                parameters.append(String(path[index]))
            } else if segment != path[index] {
                return nil
            }
        }
        return path.count == pattern.count ? parameters : nil
    }
}

/// One request to an admin endpoint, as its handler sees it.
struct AdminCall {
    let request: StubRequest
    /// The server's own URL, which serve events name.
    let baseURL: String
    /// The values of the endpoint's `{…}` segments, in order.
    let parameters: [String]

    var body: Data { request.body }
}
