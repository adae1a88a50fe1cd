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
    /// The WebSocket subprotocols (`Sec-WebSocket-Protocol`) the channels its trigger's route
    /// matches speak, such as `graphql-transport-ws`: a handshake there is answered with the first
    /// the client offers of those of every such stub, and refused with `400` when it offers none.
    /// Empty, the handshake chooses none. Decoy's own; a trigger on HTTP traffic takes none.
    public var subprotocols: [String]

    /// A message stub; `priority` 5, WireMock's default, unless given.
    public init(
        id: String = UUID().uuidString.lowercased(), name: String? = nil, priority: Int = Route.defaultPriority,
        trigger: MessageTrigger, actions: [MessageAction], subprotocols: [String] = []
    ) {
        self.subprotocols = subprotocols
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
    /// A channel opens whose initiating request (the WebSocket handshake) the route matches (any
    /// channel when `nil`): Decoy's own, for a greeting or a script that starts on connect.
    case connect(channel: Route? = nil)

    /// Whether HTTP traffic sets it off, rather than a channel's messages: its actions have no
    /// originating channel to send to.
    package var isOnHTTP: Bool {
        switch self {
        case .message, .connect: false
        case .httpRequest, .httpStub: true
        }
    }
}

/// One thing a ``MessageStub`` does, after its ``delay``: send a message to channels, or close
/// them, or break them.
///
/// A stub's actions run in order, each after its own delay from the one before, so that a stub
/// scripts a conversation, as an event stream paces its events:
///
/// ```swift
/// actions: [
///     .send(.text("tick 1")),
///     .send(.text("tick 2"), delay: .fixed(.seconds(1))),
///     .close(code: 4000, reason: "done", delay: .fixed(.seconds(1))),
/// ]
/// ```
public struct MessageAction: Sendable, Hashable {
    /// What an action does to its channels.
    public enum Kind: Sendable, Hashable {
        /// Sends the message; a template when ``MessageAction/isTemplated``.
        case send(ChannelMessage)
        /// Closes the channel with `code` and `reason`: the server's close frame, then the client's
        /// answer awaited (RFC 6455's close handshake). Messages after it are not sent.
        case close(code: Int, reason: String)
        /// Breaks the channel as the fault says.
        case fault(ChannelFault)
    }

    /// What it does.
    public var kind: Kind
    /// The channels it acts on.
    public var target: ChannelTarget
    /// Whether a text message is a response template (WireMock's `message-template` transformer),
    /// rendered with the triggering message as `message` and the channel's initiating request as
    /// the rest of `message`, or with the HTTP request that set it off as `request`.
    public var isTemplated: Bool
    /// How long it waits before acting, from the action before (or from the trigger, for the first).
    public var delay: Delay

    /// Does `kind` to `target`, after `delay`.
    public init(_ kind: Kind, to target: ChannelTarget = .originating, templated: Bool = false, delay: Delay = .none) {
        self.kind = kind
        self.target = target
        self.isTemplated = templated
        self.delay = delay
    }

    /// Sends `message` to `target`, the channel the trigger came from unless told otherwise, after `delay`.
    public static func send(
        _ message: ChannelMessage, to target: ChannelTarget = .originating, templated: Bool = false,
        delay: Delay = .none
    ) -> MessageAction {
        MessageAction(.send(message), to: target, templated: templated, delay: delay)
    }

    /// Closes `target` with `code` (1000, a normal close, unless given) and `reason`, after `delay`.
    /// The code is one RFC 6455 lets a server send: 1000–1003, 1007–1011, or 3000–4999.
    public static func close(
        code: Int = 1000, reason: String = "", to target: ChannelTarget = .originating, delay: Delay = .none
    ) -> MessageAction {
        MessageAction(.close(code: code, reason: reason), to: target, delay: delay)
    }

    /// Breaks `target` as `fault` says, after `delay`.
    public static func fault(
        _ fault: ChannelFault, to target: ChannelTarget = .originating, delay: Delay = .none
    ) -> MessageAction {
        MessageAction(.fault(fault), to: target, delay: delay)
    }

    /// Whether RFC 6455 (section 7.4) lets an endpoint send `code` in a close frame: 1000–1003 and
    /// 1007–1011 of its own, 3000–4999 for libraries and applications.
    package static func maySend(closeCode code: Int) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 3000...4999: true
        default: false
        }
    }
}

/// How a ``MessageAction`` breaks a channel, as a server that fails does.
public enum ChannelFault: Sendable, Hashable, CaseIterable {
    /// The connection is dropped: the socket closed with no close frame, as when a server crashes.
    case dropConnection
    /// The connection is failed with `1011`, an internal error: the close frame, then the socket
    /// closed at once, without awaiting the client's.
    case internalError
}

/// The channels a ``MessageAction`` sends to.
public enum ChannelTarget: Sendable, Hashable {
    /// The channel the triggering message came on.
    case originating
    /// Every open channel whose initiating request the route matches.
    case requestInitiated(Route)
}
