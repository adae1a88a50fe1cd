import Foundation
import HTTPTypes

/// The checks of RFC 9112 that libmicrohttpd leaves to its user, made on a request head before
/// anything matches it. A mock server in front of a client under test has to be strict: a head
/// that a lenient server would take one way and a proxy another is refused, never guessed at.
///
/// libmicrohttpd itself refuses an HTTP/1.1 request without `Host` (in its strict mode).
enum HeadCheck {
    /// Why the head is refused, with the status to answer, or `nil` when it passes; `method` is
    /// `nil` when the request's was not a token, and `version` is read only for a transfer coding.
    ///
    /// One pass over the fields, lowercasing none: it runs for every request.
    static func problem(
        method: HTTPRequest.Method?, version: @autoclosure () -> String, fields: [(name: String, value: String)]
    ) -> (status: HTTPResponse.Status, reason: String)? {
        guard method != nil else { return (.badRequest, "The method is not a token.") }
        var hosts = 0
        var lengths: [Substring] = []
        var codings: [Substring] = []
        for field in fields {
            guard isToken(field.name) else {
                return (.badRequest, "The header field name \"\(field.name)\" is not a token.")
            }
            if field.name.isCaseInsensitively("host") {
                hosts += 1
            } else if field.name.isCaseInsensitively("content-length") {
                lengths += field.value.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmed)
            } else if field.name.isCaseInsensitively("transfer-encoding") {
                codings += field.value.split(separator: ",").map(\.trimmed)
            }
        }
        if hosts > 1 { return (.badRequest, "The request has more than one Host field.") }
        if lengths.contains(where: { length in
            length.isEmpty || length != lengths[0]
                || !length.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }) {
            return (.badRequest, "The Content-Length fields are not one length.")
        }
        guard !codings.isEmpty else { return nil }
        if !lengths.isEmpty { return (.badRequest, "The request has both Content-Length and Transfer-Encoding.") }
        if version() == "HTTP/1.0" { return (.badRequest, "HTTP/1.0 has no Transfer-Encoding.") }
        if let coding = codings.first(where: { !String($0).isCaseInsensitively("chunked") }) {
            return (.notImplemented, "The transfer coding \"\(coding)\" is not implemented; only chunked is.")
        }
        return codings.count == 1 ? nil : (.badRequest, "chunked is applied more than once.")
    }

    /// The path and query of an absolute-form target (`http://host/p?q`), which a server must
    /// accept (RFC 9112 §3.2.2); any other target as it is.
    static func originForm(of target: String) -> String {
        // Almost every target is in origin form already; searching it for a scheme with
        // Foundation costs more than the rest of starting an exchange. A target that starts with
        // `/` has no scheme before any `://` it holds, so it is returned as it is either way.
        if target.utf8.first == UInt8(ascii: "/") { return target }
        guard let scheme = target.range(of: "://"),
            ["http", "https"].contains(target[..<scheme.lowerBound].lowercased())
        else { return target }
        let afterAuthority = target[scheme.upperBound...]
        guard let start = afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        let rest = afterAuthority[start...]
        return rest.first == "?" ? "/" + rest : String(rest)
    }

    /// Whether `text` is an RFC 9110 token: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}

extension String {
    /// Whether this equals `lowercase`, a lowercase ASCII name, ignoring ASCII case; compared
    /// over the two strings' bytes where they lie, as it runs for every field of every request.
    fileprivate func isCaseInsensitively(_ lowercase: StaticString) -> Bool {
        // Safe: a literal's bytes are static.
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return utf8.withContiguousStorageIfAvailable { Self.caseless($0, is: expected) }
            ?? Self.caseless(utf8, is: expected)
    }

    private static func caseless(_ bytes: some Collection<UInt8>, is lowercase: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == lowercase.count
            && zip(bytes, lowercase).allSatisfy { byte, expected in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte) == expected
            }
    }
}

extension Substring {
    /// Without the spaces and tabs HTTP allows around a list element.
    fileprivate var trimmed: Substring {
        let isSpace = { (character: Character) in character == " " || character == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
