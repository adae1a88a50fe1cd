package import Decoy
package import Foundation
import Yams

/// Reads WireMock's message stub mappings (`message-mappings/`, `POST /__admin/message-mappings`):
/// a trigger on a WebSocket's messages and the messages to send, in WireMock's fields. A mapping
/// Decoy cannot serve is refused with the field that says why.
enum MessageStubDecoder {
    static let fields = [
        "id", "uuid", "name", "priority", "trigger", "actions", "metadata", "$schema", "insertionIndex",
        "subprotocols",
    ]

    /// The message stub `node` describes, or `nil` after logging why there is none.
    static func decode(_ node: FileNode) -> MessageStub? {
        guard let object = node.object(known: fields, "a message stub mapping") else { return nil }
        let id = object.oneOf(["id", "uuid"]).map { $0.value.text("an id") } ?? .some(UUID().uuidString.lowercased())
        let name = object["name"].map { $0.text() } ?? .some(nil)
        let priority = object["priority"].map { $0.integer(in: 1...Int.max, "a priority of 1 or more") }
        let trigger = object["trigger"].map(trigger) ?? .some(.message())
        let actions = object["actions"].map { $0.list("a list of actions")?.map(action) } ?? .some([])
        let metadata = object["metadata"].map { node -> JSONValue? in
            guard case .mapping = node.node else { return node.expected("an object") }
            return JSONValue(parsing: Data(JSONText.of(node.node).utf8))
        }
        let subprotocols =
            object["subprotocols"].map { node in
                node.list("a list of subprotocol names").map { $0.compactMap { $0.text("a subprotocol name") } }
            } ?? .some([])
        // Present but not what it should be: `.some(nil)`, its error logged.
        guard let id, let name, let trigger, let actions, let subprotocols, priority != .some(nil),
            metadata != .some(nil)
        else {
            return nil
        }
        let decodedActions = actions.compactMap { $0 }
        guard decodedActions.count == actions.count else { return nil }
        if trigger.isOnHTTP, let index = decodedActions.firstIndex(where: { $0.target == .originating }) {
            // WireMock drops such a send without a word; here the mapping is refused where it says so.
            object["actions"]?.list()?[index].error(
                "a trigger on HTTP traffic has no originating channel: send to request-initiated channels")
            return nil
        }
        var stub = MessageStub(
            id: id, name: name, priority: (priority ?? nil) ?? Route.defaultPriority, trigger: trigger,
            actions: decodedActions, subprotocols: subprotocols)
        stub.metadata = metadata ?? nil
        do {
            try MessageStubStore.check(stub)
        } catch {
            node.error(error.reason)
            return nil
        }
        return stub
    }

    // MARK: Triggers

    private static func trigger(_ node: FileNode) -> MessageTrigger? {
        guard let object = node.object(known: ["type", "channel", "message", "requestPattern", "stubId"]) else {
            return nil
        }
        guard let type = object["type"].map({ $0.text("a trigger type") }) ?? node.expected("a trigger with a type")
        else { return nil }
        switch type {
        case "message":
            for field in ["requestPattern", "stubId"] { object[field]?.error("a message trigger takes no \(field)") }
            let channel = object["channel"].map(channelPattern) ?? .some(nil)
            let message = object["message"].map(messagePattern) ?? .some((nil, nil))
            guard let channel, let message else { return nil }
            if channel != nil, message.channel != nil {
                object["message"]?.error("give the channel's request in trigger.channel or trigger.message, not both")
                return nil
            }
            return .message(channel: channel ?? message.channel, body: message.body)
        case "connect":
            for field in ["message", "requestPattern", "stubId"] {
                object[field]?.error("a connect trigger takes no \(field)")
            }
            return (object["channel"].map(channelPattern) ?? .some(nil)).map { .connect(channel: $0) }
        case "http-request":
            for field in ["channel", "message", "stubId"] {
                object[field]?.error("an http-request trigger takes no \(field)")
            }
            guard let request = object["requestPattern"] ?? node.expected("an http-request trigger with requestPattern")
            else { return nil }
            return RequestDecoder.decode(request).flatMap { $0.compiled() }.map { .httpRequest($0.route) }
        case "http-stub":
            for field in ["channel", "message", "requestPattern"] {
                object[field]?.error("an http-stub trigger takes no \(field)")
            }
            guard let stubID = object["stubId"] ?? node.expected("an http-stub trigger with stubId") else { return nil }
            return stubID.text("a stub id").map { .httpStub(id: $0) }
        default:
            return object["type"]?.expected("message, http-request, http-stub or connect (Decoy's)")
        }
    }

    /// A trigger's `channel`: the type, `websocket`, and the initiating request's pattern; `.some(nil)`
    /// for any channel.
    private static func channelPattern(_ node: FileNode) -> Route?? {
        guard let object = node.object(known: ["type", "initiatingRequestPattern"]) else { return .none }
        guard channelType(object["type"]) else { return .none }
        guard let request = object["initiatingRequestPattern"] else { return .some(nil) }
        return RequestDecoder.decode(request).flatMap { $0.compiled() }.map { .some($0.route) } ?? .none
    }

    /// `websocket`, the one channel type Decoy serves (WireMock's others are its extensions').
    private static func channelType(_ node: FileNode?) -> Bool {
        guard let node, let type = node.text("a channel type") else { return node == nil }
        guard type == "websocket" else {
            node.error("Decoy serves channels of type websocket only; found \"\(type)\"")
            return false
        }
        return true
    }

    /// A message pattern: the channel's request pattern and the body's matcher, either absent.
    static func messagePattern(_ node: FileNode) -> (channel: Route?, body: ValueMatcher?)? {
        guard let object = node.object(known: ["channel", "body"]) else { return nil }
        let channel = object["channel"].map { RequestDecoder.decode($0).flatMap { $0.compiled() }?.route }
        let body = object["body"].map(MatcherDecoder.decode)
        if let channel, channel == nil { return nil }
        if let body, body == nil { return nil }
        if let body = body ?? nil {
            do { try body.validate() } catch {
                object["body"]?.error(error.reason)
                return nil
            }
        }
        return (channel ?? nil, body ?? nil)
    }

    // MARK: Actions

    /// The fields of an action: WireMock's, then Decoy's own (a delay; a close's code and reason;
    /// a fault's name).
    static let actionFields = [
        "type", "message", "channelTarget", "transformers", "transformerParameters",
        "delayMilliseconds", "delayDistribution", "code", "reason", "fault",
    ]

    private static func action(_ node: FileNode) -> MessageAction? {
        guard let object = node.object(known: actionFields) else { return nil }
        let type = object["type"].map { $0.text("an action type") } ?? .some("send")
        let kind: MessageAction.Kind?
        switch type {
        case "send"?:
            refuse(["code", "reason", "fault"], in: object, type: "send")
            kind = (object["message"].map(message) ?? node.expected("an action with a message")).map { .send($0) }
        case "close"?:
            refuse(["message", "fault"], in: object, type: "close")
            let code =
                object["code"].map { node in
                    node.integer(in: 0...Int(UInt16.max), "a close code").flatMap { code in
                        MessageAction.maySend(closeCode: code)
                            ? code : node.expected("a close code a server sends: 1000–1003, 1007–1011 or 3000–4999")
                    }
                } ?? .some(1000)
            let reason = object["reason"].map { $0.text("a close reason") } ?? .some("")
            kind = code.flatMap { code in reason.map { .close(code: code, reason: $0) } }
        case "fault"?:
            refuse(["message", "code", "reason"], in: object, type: "fault")
            let names = MessageStub.faultNames.keys.sorted().joined(separator: " or ")
            kind = (object["fault"] ?? node.expected("a fault action with a fault (\(names))")).flatMap { fault in
                fault.text("a fault name").flatMap { MessageStub.faultNames[$0] ?? fault.expected(names) }
            }.map { .fault($0) }
        case let other?:
            kind = object["type"]?.expected("send, or Decoy's close or fault, not \"\(other)\"")
        case nil:
            kind = nil
        }
        let target = object["channelTarget"].map(target) ?? .some(.originating)
        if let transformers = object["transformers"]?.list("a list of transformer names") {
            for transformer in transformers {
                guard let name = transformer.text(), !["message-template", "response-template"].contains(name) else {
                    continue
                }
                transformer.error("Decoy's one message transformer is message-template; found \"\(name)\"")
            }
        }
        object["transformerParameters"]?.warning("read but not acted on: Decoy's templates take no parameters")
        let delay = ResponseDecoder.delay(object, fixed: "delayMilliseconds")
        guard let kind, let target, let delay else { return nil }
        // WireMock's message-template transformer applies to every text message.
        return MessageAction(kind, to: target, templated: true, delay: delay)
    }

    /// Logs each of `fields` that `object`, an action of `type`, has.
    private static func refuse(_ fields: [String], in object: FileObject, type: String) {
        for field in fields { object[field]?.error("a \(type) action takes no \(field)") }
    }

    private static func message(_ node: FileNode) -> ChannelMessage? {
        guard let object = node.object(known: ["body"]) else { return nil }
        guard let body = object["body"]?.object(known: ["data", "isBinary"]) else {
            return object["body"] == nil ? node.expected("a message with a body") : nil
        }
        guard let data = body["data"].map({ $0.text("the message's text or base64") }) ?? .some("") else {
            return nil
        }
        guard body["isBinary"].map({ $0.flag() ?? false }) ?? false else { return .text(data) }
        guard let bytes = Data(base64Encoded: data) else {
            return body["data"]?.expected("base64, as isBinary says")
        }
        return .binary(bytes)
    }

    private static func target(_ node: FileNode) -> ChannelTarget? {
        guard let object = node.object(known: ["type", "requestPattern", "channelType"]) else { return nil }
        guard channelType(object["channelType"]) else { return nil }
        switch object["type"]?.text("a channel target type") {
        case "originating"?, nil:
            return .originating
        case "request-initiated"?:
            guard
                let request = object["requestPattern"]
                    ?? node.expected("a request-initiated target with requestPattern")
            else { return nil }
            return RequestDecoder.decode(request).flatMap { $0.compiled() }.map { .requestInitiated($0.route) }
        case let other?:
            return object["type"]?.expected("originating or request-initiated, not \"\(other)\"")
        }
    }
}

/// WireMock's message stub documents, read by ``MessageStubDecoder``.
package enum MessageStubDocument {
    /// The stubs of one file or request body: one mapping, or `{"messageMappings": [...]}`.
    static func stubNodes(_ root: FileNode) -> [FileNode] {
        if case .mapping(let mapping) = root.node, let list = mapping["messageMappings"] {
            return root.member("messageMappings", list).list("a list of message stub mappings") ?? []
        }
        return [root]
    }

    /// The one message stub mapping in `data`, JSON, as `POST /__admin/message-mappings` sends it.
    package static func stub(_ data: Data, source: String) -> Result<MessageStub, DecoyError> {
        let log = DiagnosticLog(file: source)
        var stub: MessageStub?
        if let root = StubFolder.parse(data, isJSON: true, log: log) {
            stub = MessageStubDecoder.decode(FileNode(node: root, field: "", log: log))
        }
        guard let stub, log.errors.isEmpty else { return .failure(DecoyError.invalidStubFiles(log.errors)) }
        return .success(stub)
    }

    /// A test of message stubs' `metadata` by the matcher in `data`, as WireMock's
    /// `message-mappings/find-by-metadata` applies it: a stub without metadata never passes.
    package static func metadataTest(_ data: Data, source: String) -> Result<
        @Sendable (MessageStub) -> Bool, DecoyError
    > {
        StubDocument.valueMatcher(data, source: source).flatMap { matcher in
            do throws(DecoyError) {
                let accepts = try MessageStubStore.messageTest(matcher)
                return .success({ stub in stub.metadata.map { accepts(.text($0.json)) } ?? false })
            } catch {
                return .failure(DecoyError.invalidStubFiles([StubFileDiagnostic(file: source, message: error.reason)]))
            }
        }
    }

    /// The message pattern in `data`, as `POST /__admin/messages/count` and `find` send it: a
    /// request pattern on the channel's request, and a matcher on the body; either absent.
    package static func pattern(_ data: Data, source: String) -> Result<
        (channel: RequestPattern?, body: ValueMatcher?), DecoyError
    > {
        let log = DiagnosticLog(file: source)
        var pattern: (channel: Route?, body: ValueMatcher?)?
        let text = data.isEmpty ? Data("{}".utf8) : data
        if let root = StubFolder.parse(text, isJSON: true, log: log) {
            pattern = MessageStubDecoder.messagePattern(FileNode(node: root, field: "", log: log))
        }
        guard let pattern, log.errors.isEmpty else { return .failure(DecoyError.invalidStubFiles(log.errors)) }
        do {
            let channel = try pattern.channel.map { (route) throws(DecoyError) in try RequestPattern(route) }
            return .success((channel, pattern.body))
        } catch {
            return .failure(error)
        }
    }
}
