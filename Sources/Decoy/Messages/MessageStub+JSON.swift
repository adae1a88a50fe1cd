import Foundation

extension MessageStub {
    /// The stub as WireMock's admin API gives a message stub mapping: its `id`, `name`, `priority`,
    /// `trigger`, `actions` and `metadata`.
    package var document: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "priority": .number(Double(priority))]
        if let name { members["name"] = .string(name) }
        if let metadata { members["metadata"] = metadata }
        if !subprotocols.isEmpty { members["subprotocols"] = .array(subprotocols.map(JSONValue.string)) }
        switch trigger {
        case .message(let channel, let body):
            var trigger: [String: JSONValue] = ["type": .string("message")]
            if let channel { trigger["channel"] = Self.channel(channel) }
            if let body { trigger["message"] = .object(["body": (try? StubEncoder.matcher(body)) ?? .null]) }
            members["trigger"] = .object(trigger)
        case .httpRequest(let route):
            members["trigger"] = .object(["type": .string("http-request"), "requestPattern": Self.request(route)])
        case .httpStub(let id):
            members["trigger"] = .object(["type": .string("http-stub"), "stubId": .string(id)])
        case .connect(let channel):
            var trigger: [String: JSONValue] = ["type": .string("connect")]
            if let channel { trigger["channel"] = Self.channel(channel) }
            members["trigger"] = .object(trigger)
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
                var fields: [String: JSONValue] = ["channelTarget": .object(target)]
                switch action.kind {
                case .send(let message):
                    fields["type"] = .string("send")
                    fields["message"] = .object(["body": Self.body(message)])
                case .close(let code, let reason):
                    fields["type"] = .string("close")
                    fields["code"] = .number(Double(code))
                    if !reason.isEmpty { fields["reason"] = .string(reason) }
                case .fault(let fault):
                    fields["type"] = .string("fault")
                    fields["fault"] = .string(Self.faultNames.first { $0.value == fault }!.key)
                }
                // A registered stub's delay was checked, so it is always written.
                fields.merge((try? StubEncoder.delay(action.delay, fixed: "delayMilliseconds", "a delay")) ?? [:]) {
                    $1
                }
                return .object(fields)
            })
        return .object(members)
    }

    /// Each ``ChannelFault`` by its name in a mapping's `fault` action.
    package static let faultNames: [String: ChannelFault] = [
        "DROP_CONNECTION": .dropConnection, "INTERNAL_ERROR": .internalError,
    ]

    /// A message as a mapping's `body`: text as it is, binary data in base64 with `isBinary`.
    package static func body(_ message: ChannelMessage) -> JSONValue {
        switch message {
        case .text(let text): .object(["data": .string(text)])
        case .binary(let data): .object(["data": .string(data.base64EncodedString()), "isBinary": .bool(true)])
        }
    }

    /// A trigger's `channel`: a WebSocket whose initiating request `route` matches.
    private static func channel(_ route: Route) -> JSONValue {
        .object(["type": .string("websocket"), "initiatingRequestPattern": request(route)])
    }

    private static func request(_ route: Route) -> JSONValue {
        (try? StubEncoder.request(route)) ?? .null
    }
}
