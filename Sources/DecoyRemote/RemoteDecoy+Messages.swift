public import Decoy
import DecoyStubFiles
public import DecoyTesting
import Foundation
import HTTPTypes

// WebSockets through the admin API (issue 39): pushes to open sockets and the message journal,
// WireMock's `channels/send` and `messages` endpoints.
extension RemoteDecoy: MessageRecording {
    /// Sends `message` to the server's open WebSockets whose opening request `route` matches (every
    /// open one when `nil`), as `MockServer.sendToWebSockets(_:matching:)` does in-process; returns
    /// how many it went to.
    ///
    /// ```swift
    /// let reached = try await decoy.sendToWebSockets(.text(#"{"price": 101}"#), matching: .get("/prices"))
    /// ```
    ///
    /// - Throws: ``DecoyError`` for a route a request pattern cannot describe, before anything is
    ///   sent; ``DecoyError`` when the server refuses it.
    @discardableResult
    public func sendToWebSockets(_ message: ChannelMessage, matching route: Route? = nil) async throws -> Int {
        struct Sent: Decodable { let channelsMessaged: Int }
        var members: [String: JSONValue] = [
            "type": .string("websocket"), "message": .object(["body": MessageStub.body(message)]),
        ]
        if let route { members["initiatingRequest"] = try StubEncoder.request(route) }
        let data = try await send(.post, "channels/send", json: .object(members))
        return try read(Sent.self, from: data, answering: .post, "channels/send").channelsMessaged
    }

    /// Every event of the server's message journal, oldest first.
    public func messageEvents() async throws -> [MessageEvent] {
        try events(from: try await send(.get, "messages"), answering: .get, "messages")
    }

    /// The events of the server's message journal that `pattern` matches, oldest first, found on the
    /// server (WireMock's `POST /__admin/messages/find`).
    public func messageEvents(matching pattern: MessagePattern) async throws -> [MessageEvent] {
        try events(
            from: try await send(.post, "messages/find", json: try Self.json(pattern)), answering: .post,
            "messages/find")
    }

    /// The events `pattern` matches, oldest first, once the server has `count` of them, or those it
    /// has once `timeout` has passed (WireMock's `POST /__admin/messages/wait-for-count`, which
    /// waits on the server). The wait must end within the session's request timeout, a minute by
    /// default.
    public func messageEvents(matching pattern: MessagePattern, count: Int, timeout: Duration) async throws
        -> [MessageEvent]
    {
        let (seconds, attoseconds) = timeout.components
        // Rounded up, so that a wait is never shorter than asked.
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        let body = JSONValue.object([
            "pattern": try Self.json(pattern), "count": .number(Double(count)),
            "timeoutMillis": .number(Double(max(0, milliseconds))),
        ])
        let data = try await send(.post, "messages/wait-for-count", json: body)
        return try events(from: data, answering: .post, "messages/wait-for-count")
    }

    /// How many events of the server's message journal `pattern` matches, counted on the server
    /// (WireMock's `POST /__admin/messages/count`).
    public func messageCount(matching pattern: MessagePattern) async throws -> Int {
        struct Count: Decodable { let count: Int }
        let data = try await send(.post, "messages/count", json: try Self.json(pattern))
        return try read(Count.self, from: data, answering: .post, "messages/count").count
    }

    /// Empties the server's message journal.
    public func resetMessages() async throws {
        _ = try await send(.delete, "messages")
    }

    /// The server's dashboard, named in the failures of assertions on its journals.
    public var dashboardURL: String? {
        let base = baseURL.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/__admin/dashboard"
    }

    /// `pattern` as WireMock's message pattern, with Decoy's `eventType` for its direction.
    private static func json(_ pattern: MessagePattern) throws(DecoyError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let channel = pattern.channel { members["channel"] = try StubEncoder.request(channel) }
        if let body = pattern.body { members["body"] = try StubEncoder.matcher(body) }
        if let direction = pattern.direction { members["eventType"] = .string(direction.rawValue) }
        return .object(members)
    }

    /// The message serve events of `data`, the answer to `method` of `endpoint`.
    private func events(from data: Data, answering method: HTTPRequest.Method, _ endpoint: String) throws(DecoyError)
        -> [MessageEvent]
    {
        let page = try read(LoggedMessages.self, from: data, answering: method, endpoint)
        return page.messageServeEvents.map(\.event)
    }
}

/// WireMock's `{"messageServeEvents": [...]}`, as a Decoy server writes it.
private struct LoggedMessages: Decodable {
    struct Event: Decodable {
        struct Channel: Decodable {
            let id: String
            let initiatingRequest: ServedRequest
        }
        struct Mapping: Decodable { let id: String? }

        let id: String
        let eventType: String
        let channel: Channel
        let message: String
        let stubMapping: Mapping?
        let timestamp: String

        var event: MessageEvent {
            let opening = channel.initiatingRequest
            let request = StubRequest(
                method: HTTPRequest.Method(opening.method) ?? .get, target: opening.url,
                rawHeaderFields: opening.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
                body: Data())
            let date = try? Date(timestamp, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            return MessageEvent(
                id: id, direction: eventType == "sent" ? .sent : .received, message: .text(message),
                channelID: channel.id, channelRequest: request, stubID: stubMapping?.id, date: date ?? Date())
        }
    }

    let messageServeEvents: [Event]
}
