import Crypto
import Foundation
import HTTPTypes

/// A request's opening handshake (RFC 6455 section 4.2): whether it asks for a WebSocket, and
/// the `101` that accepts it.
enum WebSocketHandshake: Equatable, Sendable {
    /// A sound request: the `Sec-WebSocket-Accept` value answers its key, and the subprotocol
    /// chosen, for `Sec-WebSocket-Protocol`, when the channel speaks any.
    case accept(String, subprotocol: String? = nil)
    /// It asks to upgrade to a WebSocket but breaks section 4.2.1: answered with `status` and
    /// `reason`, and not upgraded.
    case refuse(HTTPResponse.Status, reason: String)

    /// The handshake a request asks for: `nil` when it does not ask for a WebSocket (no
    /// `Upgrade: websocket`), so that it is served as any other request. When the channel speaks
    /// `subprotocols`, the first the client offers of them is chosen; a client that offers none of
    /// them is refused with `400`, as RFC 6455 (section 4.2.2) lets a server do, rather than given a
    /// socket whose protocol neither side agreed on.
    init?(method: HTTPRequest.Method?, fields: [(name: String, value: String)], subprotocols: [String]? = nil) {
        func values(_ name: String) -> [Substring] {
            fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
                .flatMap { $0.value.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces)[...] }
        }
        guard values("Upgrade").contains(where: { $0.caseInsensitiveCompare("websocket") == .orderedSame }) else {
            return nil
        }
        guard method == .get else {
            self = .refuse(.badRequest, reason: "A WebSocket handshake must be a GET.")
            return
        }
        guard values("Connection").contains(where: { $0.caseInsensitiveCompare("upgrade") == .orderedSame }) else {
            self = .refuse(.badRequest, reason: "A WebSocket handshake needs Connection: Upgrade.")
            return
        }
        guard values("Sec-WebSocket-Version") == ["13"] else {
            self = .refuse(.upgradeRequired, reason: "Decoy speaks WebSocket version 13 only.")
            return
        }
        let keys = fields.filter { $0.name.caseInsensitiveCompare("Sec-WebSocket-Key") == .orderedSame }
        guard keys.count == 1, let key = keys.first?.value.trimmingCharacters(in: .whitespaces),
            Data(base64Encoded: key)?.count == 16
        else {
            self = .refuse(.badRequest, reason: "A WebSocket handshake needs one Sec-WebSocket-Key of 16 bytes.")
            return
        }
        var chosen: String?
        if let subprotocols {
            let offered = values("Sec-WebSocket-Protocol")
            guard let first = offered.first(where: { subprotocols.contains(String($0)) }) else {
                self = .refuse(
                    .badRequest,
                    reason: "This WebSocket speaks the subprotocols \(subprotocols.joined(separator: ", ")); "
                        + "the handshake offers \(offered.isEmpty ? "none" : offered.joined(separator: ", ")).")
                return
            }
            chosen = String(first)
        }
        self = .accept(Self.acceptValue(forKey: key), subprotocol: chosen)
    }

    /// `Sec-WebSocket-Accept` for `key`: the base64 of the SHA-1 of the key and the RFC's GUID.
    static func acceptValue(forKey key: String) -> String {
        Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }
}
