import DecoyClient
import Foundation

/// The message stubs of a registry, compiled once to match with: what code, stub files and the
/// admin API register, and what a server's channels ask when a message arrives.
package final class MessageStubStore: Sendable {
    /// A stub with its patterns compiled and its templates parsed.
    package struct Compiled: Sendable {
        package let stub: MessageStub
        /// Which registration came later, for ties of priority.
        let order: Int
        let trigger: Trigger
        /// Each action's target pattern (`nil` for the originating channel) and template.
        package let targets: [RequestPattern?]
        let templates: [ResponseTemplate?]

        /// A trigger with its patterns compiled.
        enum Trigger: Sendable {
            case message(channel: RequestPattern?, body: CompiledValueMatcher?)
            case connect(channel: RequestPattern?)
            case httpRequest(RequestPattern)
            case httpStub(id: String)
        }

        /// Whether `message`, arrived on a channel `request` opened, sets the stub off.
        package func isTriggered(by message: ChannelMessage, on request: StubRequest) -> Bool {
            guard case .message(let channel, let body) = trigger else { return false }
            return (channel?.matches(request) ?? true) && (body?.accepts([message.text]) ?? true)
        }

        /// Whether the stub's trigger's channel route matches a channel `request` opens.
        func opensOn(_ request: StubRequest) -> Bool {
            switch trigger {
            case .message(let channel, _), .connect(let channel): channel?.matches(request) ?? true
            case .httpRequest, .httpStub: false
            }
        }

        /// Whether a channel `request` opens sets the stub off.
        package func isTriggered(byOpening request: StubRequest) -> Bool {
            guard case .connect(let channel) = trigger else { return false }
            return channel?.matches(request) ?? true
        }

        /// Whether the server's answer to `request`, by the stub registered for `route` (`nil`: its
        /// 404), sets the stub off; `mappingRoute` gives the route of an HTTP stub by its id.
        package func isTriggered(
            byAnswerTo request: StubRequest, by route: Route?, mappingRoute: (String) -> Route?
        ) -> Bool {
            switch trigger {
            case .message, .connect: false
            case .httpRequest(let pattern): pattern.matches(request)
            case .httpStub(let id): route != nil && mappingRoute(id) == route
            }
        }

        /// The message the action at `index` sends (`nil` when it sends none), set off by `trigger`
        /// on a channel `request` opened, or by an HTTP `request`: the template rendered when it is
        /// one, with the message as `message.body` and the channel's initiating request as the rest
        /// of `message`, or with the HTTP request as `request`, as WireMock's `message-template`
        /// renders them.
        package func message(
            ofAction index: Int, triggeredBy trigger: ChannelMessage?, on request: StubRequest, random: RandomSource
        ) throws(TemplateRenderError) -> ChannelMessage? {
            guard case .send(let message) = stub.actions[index].kind else { return nil }
            guard let template = templates[index] else { return message }
            let context =
                trigger.map {
                    StubRequest(
                        method: request.method, target: request.target, headerFields: request.headerFields,
                        body: $0.data)
                } ?? request
            return .text(try template.render(TemplateContext(request: context, now: nil, random: random)))
        }
    }

    private struct State {
        var stubs: [Compiled] = []
        var registered = 0
        /// The ids of the stubs a folder's `message-mappings/` gave, which its next load replaces.
        var fromFiles: Set<String> = []

        mutating func insert(_ compiled: Compiled) {
            registered += 1
            stubs.removeAll { $0.stub.id == compiled.stub.id }
            stubs.append(Compiled(compiling: compiled, order: registered))
        }
    }

    private let state = Mutex(State())

    package init() {}

    /// Adds `stub`, in place of one of the same id; throws when a route or matcher does not compile.
    package func add(_ stub: MessageStub) throws(DecoyError) {
        let compiled = try Self.compile(stub)
        state.withLock { $0.insert(compiled) }
    }

    /// Replaces the stubs a folder gave before with `stubs`, all at once; each was checked as it
    /// was read (``check(_:)``), so none is refused here.
    package func replaceFileStubs(_ stubs: [MessageStub]) {
        let compiled = stubs.compactMap { try? Self.compile($0) }
        state.withLock { state in
            state.stubs.removeAll { state.fromFiles.contains($0.stub.id) }
            for stub in compiled { state.insert(stub) }
            state.fromFiles = Set(compiled.map(\.stub.id))
        }
    }

    /// Removes the stub of `id`; whether there was one.
    @discardableResult
    package func remove(id: String) -> Bool {
        state.withLock { state in
            let before = state.stubs.count
            state.stubs.removeAll { $0.stub.id == id }
            return state.stubs.count < before
        }
    }

    /// Removes every stub.
    package func removeAll() {
        state.withLock { $0.stubs = [] }
    }

    /// Removes the stubs `test` passes.
    package func remove(where test: (MessageStub) -> Bool) {
        state.withLock { $0.stubs.removeAll { test($0.stub) } }
    }

    /// Every stub, in the order registered.
    package var stubs: [MessageStub] {
        state.withLock { $0.stubs.map(\.stub) }
    }

    /// The stub that acts on `message` arrived on a channel `request` opened: of those it sets off,
    /// the lowest priority number, then the last registered.
    package func stub(triggeredBy message: ChannelMessage, on request: StubRequest) -> Compiled? {
        state.withLock { $0.stubs }.filter { $0.isTriggered(by: message, on: request) }
            .min { ($0.stub.priority, -$0.order) < ($1.stub.priority, -$1.order) }
    }

    /// The stub that acts as a channel `request` opens: of those it sets off, the lowest priority
    /// number, then the last registered.
    package func stub(triggeredByOpening request: StubRequest) -> Compiled? {
        state.withLock { $0.stubs }.filter { $0.isTriggered(byOpening: request) }
            .min { ($0.stub.priority, -$0.order) < ($1.stub.priority, -$1.order) }
    }

    /// Every stub the server's answer to `request` sets off, by priority, as WireMock runs them all;
    /// `route` is that of the stub that answered (`nil`: the 404), `mappingRoute` the route of an
    /// HTTP stub by its id.
    package func stubs(
        triggeredByAnswerTo request: StubRequest, by route: Route?, mappingRoute: (String) -> Route?
    ) -> [Compiled] {
        state.withLock { $0.stubs }.filter {
            $0.isTriggered(byAnswerTo: request, by: route, mappingRoute: mappingRoute)
        }
        .sorted { ($0.stub.priority, -$0.order) < ($1.stub.priority, -$1.order) }
    }

    /// The subprotocols a channel `request` opens speaks: those of every stub whose trigger's
    /// channel route matches it, by priority; `nil` when none names any.
    package func subprotocols(for request: StubRequest) -> [String]? {
        let speaking = state.withLock { $0.stubs }.filter { !$0.stub.subprotocols.isEmpty }
        guard !speaking.isEmpty else { return nil }
        let names = speaking.filter { $0.opensOn(request) }
            .sorted { ($0.stub.priority, -$0.order) < ($1.stub.priority, -$1.order) }.flatMap(\.stub.subprotocols)
        return names.isEmpty ? nil : names
    }

    /// Whether any stub is set off by HTTP traffic, so that a server asks only then.
    package var hasHTTPTriggers: Bool {
        state.withLock { $0.stubs.contains { $0.stub.trigger.isOnHTTP } }
    }

    /// `matcher` as a test of messages' text, as the message journal's patterns apply it; every
    /// message passes `nil`.
    package static func messageTest(_ matcher: ValueMatcher?) throws(DecoyError) -> @Sendable (ChannelMessage) -> Bool {
        guard let matcher else { return { _ in true } }
        let compiled = try CompiledValueMatcher(matcher) { DecoyError.invalidRoute(path: "body", reason: $0) }
        return { compiled.accepts([$0.text]) }
    }

    /// Throws what keeps `stub` from being registered, for a stub file to report where it is written.
    package static func check(_ stub: MessageStub) throws(DecoyError) {
        _ = try compile(stub)
    }

    private static func compile(_ stub: MessageStub) throws(DecoyError) -> Compiled {
        let trigger: Compiled.Trigger
        switch stub.trigger {
        case .message(let route, let matcher):
            trigger = .message(
                channel: try route.map { (route) throws(DecoyError) in try RequestPattern(route) },
                body: try matcher.map { (matcher) throws(DecoyError) in
                    try CompiledValueMatcher(matcher) {
                        DecoyError.invalidRoute(path: "trigger.message.body", reason: $0)
                    }
                })
        case .connect(let route):
            trigger = .connect(channel: try route.map { (route) throws(DecoyError) in try RequestPattern(route) })
        case .httpRequest(let route):
            trigger = .httpRequest(try RequestPattern(route))
        case .httpStub(let id):
            trigger = .httpStub(id: id)
        }
        if stub.trigger.isOnHTTP, !stub.subprotocols.isEmpty {
            throw DecoyError.invalidRoute(
                path: "subprotocols", reason: "a trigger on HTTP traffic opens no channel to speak them on")
        }
        for name in stub.subprotocols where name.isEmpty || name.contains(where: { ", \t\"".contains($0) }) {
            throw DecoyError.invalidRoute(path: "subprotocols", reason: "\"\(name)\" is not a subprotocol's name")
        }
        var targets: [RequestPattern?] = []
        var templates: [ResponseTemplate?] = []
        for (index, action) in stub.actions.enumerated() {
            switch action.target {
            case .originating where stub.trigger.isOnHTTP:
                // WireMock drops such a send without a word; a stub that can never send is refused.
                throw DecoyError.invalidRoute(
                    path: "actions[\(index)].channelTarget",
                    reason: "an HTTP trigger has no originating channel; send to request-initiated channels")
            case .originating: targets.append(nil)
            case .requestInitiated(let route): targets.append(try RequestPattern(route))
            }
            try check(action, at: index)
            if action.isTemplated, case .send(.text(let text)) = action.kind {
                // A channel's message is `message`, the HTTP request that set the stub off `request`.
                templates.append(try ResponseTemplate(text, requestName: stub.trigger.isOnHTTP ? "request" : "message"))
            } else {
                templates.append(nil)
            }
        }
        return Compiled(stub: stub, order: 0, trigger: trigger, targets: targets, templates: templates)
    }

    /// Throws what is wrong with the action at `index`: its delay, or a close code RFC 6455 does not
    /// let a server send.
    private static func check(_ action: MessageAction, at index: Int) throws(DecoyError) {
        if let problem = action.delay.problem {
            throw DecoyError.invalidRoute(path: "actions[\(index)].delay", reason: problem)
        }
        guard case .close(let code, let reason) = action.kind else { return }
        guard MessageAction.maySend(closeCode: code) else {
            throw DecoyError.invalidRoute(
                path: "actions[\(index)].code",
                reason: "a server closes with 1000–1003, 1007–1011 or 3000–4999, not \(code)")
        }
        guard reason.utf8.count <= closeReasonLimit else {
            throw DecoyError.invalidRoute(
                path: "actions[\(index)].reason",
                reason: "a close reason takes at most \(closeReasonLimit) bytes, as a control frame holds 125")
        }
    }

    /// The most bytes of a close frame's reason: a control frame's 125, less the code's two.
    static let closeReasonLimit = 123
}

extension MessageStubStore.Compiled {
    fileprivate init(compiling compiled: Self, order: Int) {
        self.init(
            stub: compiled.stub, order: order, trigger: compiled.trigger, targets: compiled.targets,
            templates: compiled.templates)
    }
}

extension StubRegistry {
    /// Registers a message stub, served by a `MockServer` of this registry to its WebSockets; one
    /// of the same id is replaced. Throws when a route, matcher or template does not compile.
    public func register(_ messageStub: MessageStub) throws(DecoyError) {
        try messageStubs.add(messageStub)
    }

    /// Removes the message stub of `id`; whether there was one.
    @discardableResult
    public func removeMessageStub(id: String) -> Bool {
        messageStubs.remove(id: id)
    }

    /// The message stubs registered, in the order registered.
    public var registeredMessageStubs: [MessageStub] { messageStubs.stubs }
}
