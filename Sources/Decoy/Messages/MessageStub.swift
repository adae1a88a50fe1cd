public import Foundation

/// A message stub, WireMock's "message stub mapping": when its trigger fires (a message arrives
/// on a WebSocket, a channel, or the server answers an HTTP request), its actions send messages
/// to channels. Served by `MockServer` and
/// `decoy serve` only: a `URLProtocol` cannot see a WebSocket task.
///
/// ```swift
/// try registry.register(
///     MessageStub(
///         trigger: .message(channel: .get("/chat"), body: .equalTo("ping")),
///         actions: [.send(.text("pong"))]))
/// ```
public struct MessageStub: Sendable, Identifiable {
    /// The id: the mapping's `id` or `uuid`, or a new UUID.
    public var id: String
    /// The mapping's name.
    public var name: String?
    /// Among the stubs a message triggers, the one of the lowest priority number acts (1 first);
    /// between equal ones, the one registered last.
    public var priority: Int
    /// What sets it off.
    public var trigger: MessageTrigger
    /// What it does, in order.
    public var actions: [MessageAction]
    /// The mapping's `metadata`, as written; `nil` when it has none.
    package var metadata: JSONValue?

    /// A message stub; `priority` 5, WireMock's default, unless given.
    public init(
        id: String = UUID().uuidString.lowercased(), name: String? = nil, priority: Int = Route.defaultPriority,
        trigger: MessageTrigger, actions: [MessageAction]
    ) {
        self.id = id
        self.name = name
        self.priority = priority
        self.trigger = trigger
        self.actions = actions
    }
}

/// What sets a ``MessageStub`` off.
public enum MessageTrigger: Sendable, Hashable {
    /// A message arrives on a channel whose initiating request (the WebSocket handshake) the route
    /// matches (any channel when `nil`), with a text the matcher accepts (any text when `nil`).
    case message(channel: Route? = nil, body: ValueMatcher? = nil)
    /// The server answers an HTTP request the route matches, whether a stub answers it or its 404
    /// does (WireMock's `http-request` trigger). Every such stub acts, as its answer goes out.
    case httpRequest(Route)
    /// The HTTP stub of this id (its ``StubMapping/id``) answers a request (WireMock's `http-stub`
    /// trigger). Every such stub acts, as the answer goes out.
    case httpStub(id: String)

    /// Whether HTTP traffic sets it off, rather than a channel's messages: its actions have no
    /// originating channel to send to.
    package var isOnHTTP: Bool {
        switch self {
        case .message: false
        case .httpRequest, .httpStub: true
        }
    }
}

/// One thing a ``MessageStub`` does: send a message to channels.
public struct MessageAction: Sendable, Hashable {
    /// The message; a template when ``isTemplated``.
    public var message: ChannelMessage
    /// Where it goes.
    public var target: ChannelTarget
    /// Whether a text message is a response template (WireMock's `response-template` transformer),
    /// rendered with the triggering message as `message` and the channel's initiating request as
    /// `request`.
    public var isTemplated: Bool

    /// Sends `message` to `target`; see ``send(_:to:templated:)``.
    public init(message: ChannelMessage, target: ChannelTarget, isTemplated: Bool) {
        self.message = message
        self.target = target
        self.isTemplated = isTemplated
    }

    /// Sends `message` to `target`, the channel the trigger came from unless told otherwise.
    public static func send(
        _ message: ChannelMessage, to target: ChannelTarget = .originating, templated: Bool = false
    ) -> MessageAction {
        MessageAction(message: message, target: target, isTemplated: templated)
    }
}

/// The channels a ``MessageAction`` sends to.
public enum ChannelTarget: Sendable, Hashable {
    /// The channel the triggering message came on.
    case originating
    /// Every open channel whose initiating request the route matches.
    case requestInitiated(Route)
}
