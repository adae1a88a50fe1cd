import Foundation

/// The parts of a base URL that every request target is built from, split once at start-up.
struct BaseTarget: Sendable {
    let scheme: String?
    let authority: String?
    let pathPrefix: String

    init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        scheme = components?.scheme
        authority = components.flatMap { components in
            components.percentEncodedHost.map { host in components.port.map { "\(host):\($0)" } ?? host }
        }
        let path = components?.percentEncodedPath ?? ""
        pathPrefix = path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The target of an absolute endpoint: no path prefix.
    init(scheme: String, authority: String) {
        self.scheme = scheme
        self.authority = authority
        pathPrefix = ""
    }

    /// `prefix + path`, then the query percent-encoded as a form would encode it.
    func path(_ path: String, query: [URLQueryItem]) -> String {
        var target = pathPrefix
        if !path.hasPrefix("/") { target += "/" }
        // Most paths need no escaping; checking bytes is far cheaper than Foundation's encoder.
        target +=
            path.utf8.allSatisfy(Self.isPlainPathByte)
            ? path : path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        guard !query.isEmpty else { return target }
        target += "?"
        target += query.map { item in
            let name = Self.encodeQueryComponent(item.name)
            return item.value.map { "\(name)=\(Self.encodeQueryComponent($0))" } ?? name
        }.joined(separator: "&")
        return target
    }

    private static func isPlainPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))

    private static func encodeQueryComponent(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? string
    }
}
