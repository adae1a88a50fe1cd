import Foundation
import HTTPTypes

/// A request nothing matched: its closest routes, and the `404 Not Found` that names them.
package struct Unmatched: Sendable {
    /// The closest routes and why each missed, best first.
    package let nearMisses: [NearMiss]
    /// `404 Not Found`, naming them.
    package let response: StubResponse

    /// The 404 for `request`; one `isServedOnce` answers this request alone, so servings keep no
    /// encoding of it.
    init(_ request: StubRequest, nearMisses: [NearMiss], isServedOnce: Bool) {
        self.nearMisses = nearMisses
        // Appended as bytes into room made once, the near misses worded straight into it:
        // requests to distinct targets make a new one each, and appending to a `String` piece by
        // piece costs more than the words.
        var text: [UInt8] = []
        text.reserveCapacity(
            64 + request.target.utf8.count
                + nearMisses.reduce(0) { $0 + $1.route.path.utf8.count + $1.reasonCapacity + 24 })
        text.append(utf8: "No stub matches ")
        text.append(utf8: request.method.rawValue)
        text.append(utf8: " ")
        text.append(utf8: request.target)
        text.append(utf8: ".\n")
        if nearMisses.isEmpty {
            text.append(utf8: "No registered route comes close.\n")
        } else {
            text.append(utf8: "Closest routes:\n")
            for miss in nearMisses {
                text.append(utf8: "  - ")
                miss.route.appendDescription(to: &text)
                text.append(utf8: ": ")
                miss.appendReason(to: &text)
                text.append(utf8: "\n")
            }
        }
        // With a head made once: finding that a text response has its content type, field by
        // field, costs more than the body.
        response = StubResponse(head: Self.head, body: Data(text), isServedOnce: isServedOnce)
    }

    /// The 404's status and header fields, as ``StubResponse/init(status:headerFields:text:delay:)`` makes them.
    private static let head = HTTPResponse(
        status: .notFound,
        headerFields: HTTPFields([HTTPField(name: .decoyUnmatched, value: "true")])
            .defaulting(.contentType, to: "text/plain; charset=utf-8"))
}

/// What an unmatched request's 404 depends on besides the routes, when no route near it looks at
/// header fields, cookies, the body or a scenario: the method and the target.
struct RequestLine: Hashable, Sendable {
    let method: HTTPRequest.Method
    let target: String

    init(_ request: StubRequest) {
        method = request.method
        target = request.target
    }
}
