import Foundation

extension MessageStub {
    /// The stub as WireMock's admin API gives a message stub mapping: its `id`, `name`, `priority`,
    /// `trigger`, `actions` and `metadata`.
    package var document: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "priority": .number(Double(priority))]
        if let name { members["name"] = .string(name) }
        if let metadata { members["metadata"] = metadata }
        switch trigger {
        case .message(let channel, let body):
            var trigger: [String: JSONValue] = ["type": .string("message")]
            if let channel {
                trigger["channel"] = .object([
                    "type": .string("websocket"), "initiatingRequestPattern": Self.request(channel),
                ])
            }
            if let body { trigger["message"] = .object(["body": (try? StubEncoder.matcher(body)) ?? .null]) }
            members["trigger"] = .object(trigger)
        case .httpRequest(let route):
            members["trigger"] = .object(["type": .string("http-request"), "requestPattern": Self.request(route)])
        case .httpStub(let id):
            members["trigger"] = .object(["type": .string("http-stub"), "stubId": .string(id)])
        }
        members["actions"] = .array(
            actions.map { action in
                var target: [String: JSONValue] = [:]
                switch action.target {
                case .originating: target["type"] = .string("originating")
                case .requestInitiated(let route):
                    target = [
                        "type": .string("request-initiated"), "channelType": .string("websocket"),
                        "requestPattern": Self.request(route),
                    ]
                }
                return .object([
                    "type": .string("send"), "channelTarget": .object(target),
                    "message": .object(["body": Self.body(action.message)]),
                ])
            })
        return .object(members)
    }

    /// A message as a mapping's `body`: text as it is, binary data in base64 with `isBinary`.
    package static func body(_ message: ChannelMessage) -> JSONValue {
        switch message {
        case .text(let text): .object(["data": .string(text)])
        case .binary(let data): .object(["data": .string(data.base64EncodedString()), "isBinary": .bool(true)])
        }
    }

    private static func request(_ route: Route) -> JSONValue {
        (try? StubEncoder.request(route)) ?? .null
    }
}
