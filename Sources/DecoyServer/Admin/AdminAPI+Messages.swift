import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

// WireMock's endpoints for message stubs, channels and the message journal (issue 39): the rows of
// `AdminAPI.routes` under `message-mappings`, `channels` and `messages`.
extension AdminAPI {
    /// The rows of the routes table for WebSockets, in the order they are tried.
    static let messageRoutes: [AdminRoute] = [
        AdminRoute(.get, "channel-events") { api, call in api.channelEvents(call) },
        AdminRoute(.get, "message-mappings") { api, _ in
            let stubs = api.webSockets.store.stubs
            return AdminReply.json(
                JSONValue.object([
                    "messageMappings": .array(stubs.map(\.document)),
                    "meta": .object(["total": .number(Double(stubs.count))]),
                ]).json)
        },
        AdminRoute(.post, "message-mappings") { api, call in api.addMessageStub(call.body, id: nil) },
        AdminRoute(.delete, "message-mappings") { api, _ in
            api.webSockets.store.removeAll()
            return AdminReply.ok
        },
        AdminRoute(.post, "message-mappings/find-by-metadata") { api, call in
            api.withMetadataTest(call.body) { test in
                let found = api.webSockets.store.stubs.filter(test)
                return AdminReply.json(
                    JSONValue.object([
                        "messageMappings": .array(found.map(\.document)),
                        "meta": .object(["total": .number(Double(found.count))]),
                    ]).json)
            }
        },
        AdminRoute(.post, "message-mappings/remove-by-metadata") { api, call in
            api.withMetadataTest(call.body) { test in
                api.webSockets.store.remove(where: test)
                return AdminReply.ok
            }
        },
        AdminRoute(.get, "message-mappings/{id}") { api, call in
            guard let stub = api.webSockets.store.stubs.first(where: { $0.id == call.parameters[0] }) else {
                return AdminReply.error(.notFound, "No message stub mapping has the id \(call.parameters[0]).")
            }
            return AdminReply.json(stub.document.json)
        },
        AdminRoute(.put, "message-mappings/{id}") { api, call in api.addMessageStub(call.body, id: call.parameters[0])
        },
        AdminRoute(.delete, "message-mappings/{id}") { api, call in
            guard api.webSockets.store.remove(id: call.parameters[0]) else {
                return AdminReply.error(.notFound, "No message stub mapping has the id \(call.parameters[0]).")
            }
            return AdminReply.ok
        },
        AdminRoute(.get, "channels") { api, call in
            let channels = api.webSockets.channels
            return AdminReply.json(
                JSONValue.object([
                    "channels": .array(channels.map { api.document(of: $0, baseURL: call.baseURL, isOpen: true) }),
                    "meta": .object(["total": .number(Double(channels.count))]),
                ]).json)
        },
        AdminRoute(.post, "channels/send", awaiting: { api, call in await api.sendToChannels(call) }),
        AdminRoute(
            unserved: "channels/**", reason: "Decoy's channels are WebSockets only, listed and sent to as a whole"),
        AdminRoute(unserved: "channel-providers/**", reason: "Decoy's channels are WebSockets only"),
        AdminRoute(.get, "messages") { api, call in api.messageEvents(api.webSockets.journal.events, call) },
        AdminRoute(.delete, "messages") { api, _ in
            api.webSockets.journal.removeAll()
            return AdminReply.ok
        },
        AdminRoute(.post, "messages/count") { api, call in
            api.withMessagePattern(call.body) { pattern in
                let count = api.webSockets.journal.events(matching: pattern).count
                return AdminReply.json(
                    JSONValue.object(["count": .number(Double(count)), "messageJournalDisabled": .bool(false)]).json)
            }
        },
        AdminRoute(.post, "messages/find") { api, call in
            api.withMessagePattern(call.body) { api.messageEvents(api.webSockets.journal.events(matching: $0), call) }
        },
        AdminRoute(.post, "messages/wait-for-count", awaiting: { api, call in await api.waitForMessages(call) }),
        AdminRoute(.post, "messages/wait", awaiting: { api, call in await api.waitForMessages(call, one: true) }),
        AdminRoute(.post, "messages/remove") { api, call in
            api.withMessagePattern(call.body) { api.messageEvents(api.webSockets.journal.remove(where: $0), call) }
        },
        AdminRoute(
            unserved: "messages/remove-by-metadata", reason: "message events carry no metadata of their own in Decoy"),
        AdminRoute(.get, "messages/{id}") { $0.messageEvent($1) },
        AdminRoute(.delete, "messages/{id}") { $0.messageEvent($1) },
        AdminRoute(unserved: "messages/**", reason: "the message journal is read whole, counted, found and waited for"),
    ]

    /// `POST` (a new stub) or `PUT` (`id`'s stub replaced) of a message stub mapping.
    private func addMessageStub(_ body: Data, id: String?) -> StubResponse {
        switch MessageStubDocument.stub(body, source: "request body") {
        case .failure(let error):
            return AdminReply.invalid(error)
        case .success(var stub):
            if let id { stub.id = id }
            do {
                try webSockets.store.add(stub)
            } catch {
                return AdminReply.invalid(error)
            }
            return AdminReply.json(stub.document.json, status: id == nil ? .created : .ok)
        }
    }

    /// `POST /__admin/channels/send`: `{"type": "websocket", "initiatingRequest": {…}, "message": {"body": …}}`.
    private func sendToChannels(_ call: AdminCall) async -> StubResponse {
        guard case .object(let members)? = JSONValue(parsing: call.body) else {
            return AdminReply.error(.badRequest, "Expected a JSON object with type, initiatingRequest and message.")
        }
        if let type = members["type"], type != .string("websocket") {
            return AdminReply.error(.badRequest, "Decoy's channels are of type websocket; found \(type.json).")
        }
        guard case .object(let message)? = members["message"], case .object(let body)? = message["body"],
            case .string(let data)? = body["data"]
        else {
            return AdminReply.error(.badRequest, "message.body.data: expected the message's text or base64.")
        }
        let sent: ChannelMessage
        if body["isBinary"] == .bool(true) {
            guard let bytes = Data(base64Encoded: data) else {
                return AdminReply.error(.badRequest, "message.body.data: expected base64, as isBinary says.")
            }
            sent = .binary(bytes)
        } else {
            sent = .text(data)
        }
        var pattern: RequestPattern?
        if let request = members["initiatingRequest"] {
            do {
                pattern = try RequestPattern(json: Data(request.json.utf8), source: "initiatingRequest")
            } catch {
                return AdminReply.invalid(error)
            }
        }
        let channels = await webSockets.send(sent, toChannelsMatching: pattern)
        return AdminReply.json(
            JSONValue.object([
                "channels": .array(channels.map { document(of: $0, baseURL: call.baseURL, isOpen: true) }),
                "channelsMessaged": .number(Double(channels.count)),
            ]).json)
    }

    /// `POST /__admin/messages/wait-for-count`: `{"pattern": {…}, "count": n, "timeoutMillis": t}`;
    /// the events the pattern matches once there are `count`, or those there are at the timeout.
    /// With `one`, `POST /__admin/messages/wait`, as WireMock answers it: the first such event
    /// alone, or `null` at the timeout.
    private func waitForMessages(_ call: AdminCall, one: Bool = false) async -> StubResponse {
        guard case .object(let members)? = JSONValue(parsing: call.body),
            case .number(let timeout)? = members["timeoutMillis"], timeout >= 0
        else {
            return AdminReply.error(.badRequest, "timeoutMillis: expected a whole number of milliseconds.")
        }
        var count = 1
        if !one, let given = members["count"] {
            guard case .number(let number) = given, number >= 0 else {
                return AdminReply.error(.badRequest, "count: expected a whole number.")
            }
            count = Int(number)
        }
        let pattern: MessageJournal.Pattern
        switch Self.messagePattern(Data((members["pattern"] ?? .object([:])).json.utf8)) {
        case .failure(let error): return AdminReply.invalid(error)
        case .success(let made): pattern = made
        }
        let events = await webSockets.journal.events(
            matching: pattern, count: count, timeout: .milliseconds(Int64(timeout)), clock: webSockets.clock)
        guard one else { return messageEvents(events, call) }
        return AdminReply.json(events.first.map { documents(of: [$0], baseURL: call.baseURL)[0].json } ?? "null")
    }

    private func withMetadataTest(_ body: Data, _ reply: (@escaping @Sendable (MessageStub) -> Bool) -> StubResponse)
        -> StubResponse
    {
        switch MessageStubDocument.metadataTest(body, source: "request body") {
        case .failure(let error): AdminReply.invalid(error)
        case .success(let test): reply(test)
        }
    }

    private func withMessagePattern(_ body: Data, _ reply: (@escaping MessageJournal.Pattern) -> StubResponse)
        -> StubResponse
    {
        switch Self.messagePattern(body) {
        case .failure(let error): AdminReply.invalid(error)
        case .success(let pattern): reply(pattern)
        }
    }

    /// WireMock's message pattern, `{"channel": {request pattern}, "body": {matcher}}`, as a test of events;
    /// Decoy also reads `"eventType": "received"` or `"sent"`, which WireMock's pattern lacks, so that
    /// a test can wait for what its client sent while a stub echoes it.
    private static func messagePattern(_ body: Data) -> Result<MessageJournal.Pattern, DecoyError> {
        var body = body
        var kind: MessageJournal.Event.Kind?
        if case .object(var members)? = JSONValue(parsing: body),
            let eventType = members.removeValue(forKey: "eventType")
        {
            guard case .string(let name) = eventType, let named = MessageJournal.Event.Kind(rawValue: name) else {
                return .failure(.invalidRoute(path: "eventType", reason: "expected \"received\" or \"sent\""))
            }
            kind = named
            body = Data(JSONValue.object(members).json.utf8)
        }
        let direction = kind
        return MessageStubDocument.pattern(body, source: "request body").flatMap { channel, body in
            let accepts: @Sendable (ChannelMessage) -> Bool
            do throws(DecoyError) { accepts = try MessageStubStore.messageTest(body) } catch { return .failure(error) }
            return .success({ event in
                (direction.map { $0 == event.kind } ?? true) && (channel?.matches(event.channel.request) ?? true)
                    && accepts(event.message)
            })
        }
    }

    private func messageEvents(_ events: [MessageJournal.Event], _ call: AdminCall) -> StubResponse {
        AdminReply.json(
            JSONValue.object([
                "messageServeEvents": .array(documents(of: events, baseURL: call.baseURL)),
                "messageJournalDisabled": .bool(false),
            ]).json)
    }

    /// `GET` or `DELETE` of the message event `{id}`: the event, or `{}` once it is forgotten.
    private func messageEvent(_ call: AdminCall) -> StubResponse {
        let id = call.parameters[0]
        guard let event = webSockets.journal.events.first(where: { $0.id.uuidString.lowercased() == id.lowercased() })
        else { return AdminReply.error(.notFound, "No message event has the id \(id).") }
        guard call.request.method == .delete else {
            return AdminReply.json(documents(of: [event], baseURL: call.baseURL)[0].json)
        }
        webSockets.journal.remove { $0.id == event.id }
        return AdminReply.ok
    }

    /// `GET /__admin/channel-events`, Decoy's own: the dashboard's live feed of the WebSockets, an
    /// `event: opened` with each channel as `channels` lists it, an `event: message` with each message
    /// event as `messages` lists it, and an `event: closed` with the channel, its close frame's `code`
    /// and `reason` (`null` when it had none), who sent it (`by`) and the messages `received` and `sent`.
    private func channelEvents(_ call: AdminCall) -> Reply {
        let baseURL = call.baseURL
        return JournalFeed.stream(webSockets.activity.subscribe(), greeting: "Decoy's WebSockets, live") { changes in
            changes.map { change in
                let (name, data): (String, JSONValue) =
                    switch change {
                    case .opened(let channel): ("opened", document(of: channel, baseURL: baseURL, isOpen: true))
                    case .message(let event): ("message", documents(of: [event], baseURL: baseURL)[0])
                    case .closed(let channel, let close):
                        (
                            "closed",
                            .object([
                                "channel": document(of: channel, baseURL: baseURL, isOpen: false),
                                "code": close.frame?.code.map { .number(Double($0.rawValue)) } ?? .null,
                                "reason": close.frame.map { .string($0.reason) } ?? .null,
                                "by": close.frame.map { .string($0.isClients ? "client" : "server") } ?? .null,
                                "received": .number(Double(close.received)), "sent": .number(Double(close.sent)),
                            ])
                        )
                    }
                return "event: \(name)\ndata: \(data.json)\n\n"
            }
            .joined()
        }
    }

    /// Events as WireMock's `MessageServeEvent`s, each with its channel and the stub that matched.
    private func documents(of events: [MessageJournal.Event], baseURL: String) -> [JSONValue] {
        let stubs = Dictionary(webSockets.store.stubs.map { ($0.id, $0) }) { _, last in last }
        let open = Set(webSockets.channels.map(\.id))
        return events.map { event in
            var members: [String: JSONValue] = [
                "id": .string(event.id.uuidString.lowercased()),
                "eventType": .string(event.kind.rawValue),
                "channel": document(of: event.channel, baseURL: baseURL, isOpen: open.contains(event.channel.id)),
                "message": .string(event.message.text),
                "wasMatched": .bool(event.stubID != nil),
                "timestamp": .string(event.date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            ]
            if let id = event.stubID, let stub = stubs[id] { members["stubMapping"] = stub.document }
            return JSONValue.object(members)
        }
    }

    /// A channel as WireMock's `LoggedMessageChannel` shows one.
    private func document(of channel: MessageJournal.ChannelSummary, baseURL: String, isOpen: Bool) -> JSONValue {
        let request = ServedRequest(
            channel.request, id: channel.id.uuidString.lowercased(), date: channel.opened, baseURL: baseURL)
        let encoded = (try? JSONEncoder().encode(request)).flatMap { JSONValue(parsing: $0) } ?? .null
        return .object([
            "id": .string(channel.id.uuidString.lowercased()), "type": .string("websocket"),
            "initiatingRequest": encoded, "open": .bool(isOpen),
        ])
    }
}
