public import Foundation

/// One message on a channel (a WebSocket): text, or binary data, as WireMock's message stubs send
/// and match them.
///
/// ```swift
/// let hello = ChannelMessage.text("hello")
/// let bytes = ChannelMessage.binary(Data([0x01, 0x02]))
/// ```
public enum ChannelMessage: Sendable, Hashable {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message as text, as WireMock's journal and body patterns read it: binary data is read as
    /// UTF-8, invalid sequences replaced.
    public var text: String {
        switch self {
        case .text(let text): text
        case .binary(let data): String(decoding: data, as: UTF8.self)
        }
    }

    /// The message's bytes: text in UTF-8.
    public var data: Data {
        switch self {
        case .text(let text): Data(text.utf8)
        case .binary(let data): data
        }
    }
}
