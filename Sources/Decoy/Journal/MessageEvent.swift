public import Foundation

/// One message of a server's message journal, WireMock's message serve event: a message a
/// WebSocket's client sent (received by the server), or one the server sent to it.
public struct MessageEvent: Sendable {
    /// Which way a message went, seen from the server.
    public enum Direction: String, Sendable, Hashable {
        /// The client sent it; the server received it.
        case received
        /// The server sent it: a message stub's action, or a push from a test.
        case sent
    }

    /// The event's id, a lowercased UUID.
    public let id: String
    /// Which way the message went.
    public let direction: Direction
    /// The message. A server's admin API gives a binary message as its bytes read as UTF-8 text.
    public let message: ChannelMessage
    /// The id of the channel (the WebSocket) it went over.
    public let channelID: String
    /// The request that opened the channel: the WebSocket's handshake.
    public let channelRequest: StubRequest
    /// The id of the message stub that matched a received message, or that sent this one; `nil` for a
    /// received message no stub matched and a message pushed from a test.
    public let stubID: String?
    /// When it was received or sent.
    public let date: Date

    package init(
        id: String, direction: Direction, message: ChannelMessage, channelID: String, channelRequest: StubRequest,
        stubID: String?, date: Date
    ) {
        (self.id, self.direction, self.message) = (id, direction, message)
        (self.channelID, self.channelRequest, self.stubID, self.date) = (channelID, channelRequest, stubID, date)
    }
}

/// Which events of a message journal: WireMock's message pattern (a channel's opening request and a
/// message's text), and which way the message went.
///
/// ```swift
/// let hello = MessagePattern.received(on: .get("/chat"), body: .equalTo("hello"))
/// ```
public struct MessagePattern: Sendable, Hashable {
    /// The route the channel's opening request matches; any channel when `nil`.
    public var channel: Route?
    /// What the message's text satisfies; any message when `nil`.
    public var body: ValueMatcher?
    /// Which way the message went; either when `nil`, as WireMock counts.
    public var direction: MessageEvent.Direction?

    /// Messages either way on channels `channel` matches, with a text `body` accepts.
    public init(channel: Route? = nil, body: ValueMatcher? = nil, direction: MessageEvent.Direction? = nil) {
        (self.channel, self.body, self.direction) = (channel, body, direction)
    }

    /// Messages clients sent on channels `channel` matches, with a text `body` accepts.
    public static func received(on channel: Route? = nil, body: ValueMatcher? = nil) -> MessagePattern {
        MessagePattern(channel: channel, body: body, direction: .received)
    }

    /// Messages the server sent on channels `channel` matches, with a text `body` accepts.
    public static func sent(on channel: Route? = nil, body: ValueMatcher? = nil) -> MessagePattern {
        MessagePattern(channel: channel, body: body, direction: .sent)
    }

    /// The pattern as one route over a message's channel request with the message as its body, so
    /// that matching it and wording why an event misses it are the request journal's own.
    package var route: Route {
        let channel = channel ?? .any("/**")
        return body.map { channel.body($0) } ?? channel
    }

    /// `event` as the request ``route`` is matched against: the channel's opening request with the
    /// message for its body.
    package static func request(of event: MessageEvent) -> StubRequest {
        let opening = event.channelRequest
        return StubRequest(
            method: opening.method, target: opening.target, headerFields: opening.headerFields,
            body: event.message.data)
    }
}

extension MessagePattern: CustomStringConvertible {
    /// `received on GET /chat with a body equal to "hello"`, as failures name it after a count of messages.
    public var description: String {
        var words = direction.map { "\($0.rawValue) " } ?? ""
        words += channel.map { "on \($0)" } ?? "on any channel"
        if let body { words += " with a body \(body)" }
        return words
    }
}
