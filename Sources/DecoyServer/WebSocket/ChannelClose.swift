import Decoy
import Foundation

/// How a channel ended, as the request log and the dashboard tell it: the close frame that ended
/// it, and how many messages went each way while it was open.
struct ChannelClose: Sendable {
    /// The first close frame sent or received; `nil` when the connection ended without one.
    let frame: WebSocketStateMachine.CloseFrame?
    /// Messages the client sent.
    let received: Int
    /// Messages the server sent.
    let sent: Int
    /// How long the channel was open.
    let nanoseconds: Int64

    /// `closed by the client: 1000 "bye"; 2 messages received, 3 sent`, as the request log words it.
    var words: String {
        let counts = "; \(received == 1 ? "1 message" : "\(received) messages") received, \(sent) sent"
        guard let frame else { return "dropped without a close frame" + counts }
        var text = "closed by the \(frame.isClients ? "client" : "server"): "
        text += frame.code.map { "\($0.rawValue)" } ?? "no code"
        if !frame.reason.isEmpty { text += " \"\(frame.reason)\"" }
        return text + counts
    }
}
