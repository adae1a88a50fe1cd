import CMicroHTTPD
import Decoy
import DecoyClient
import Foundation

/// A server's open WebSockets ("channels", as WireMock names them) and what happens on them: the
/// message stubs that answer, the journal of messages, the pushes of the admin API.
///
/// No thread per socket: every upgraded socket is watched by a dispatch read source, and every
/// read, write and frame of every channel is handled on one serial queue, ``queue``; a write the
/// socket cannot take yet waits for a write source. A channel's machine and its pending output are
/// touched only there. The table of open channels is behind a lock, for the admin API.
final class WebSocketChannels: Sendable {
    let store: MessageStubStore
    /// The route of the HTTP stub of an id, for `http-stub` triggers.
    let mappingRoute: @Sendable (String) -> Route?
    let journal = MessageJournal()
    /// What happens on the channels, for the dashboard's live feed.
    let activity = ChannelActivity()
    /// The largest message a client may send (`1009` past it).
    let messageLimit: Int
    /// The most bytes a channel may have waiting for a client that does not read: past it, the
    /// connection is dropped, so that a slow reader costs the server a bounded amount of memory.
    let pendingLimit: Int
    let random: RandomSource
    let clock: any Clock<Duration>
    /// The one queue on which every channel is read, written and moved on.
    let queue = DispatchQueue(label: "decoy.websockets")
    /// Where every channel reads its socket into: one for all, as they are read one at a time, on
    /// ``queue``; a buffer per socket would cost every open socket its size.
    let readBuffer = ReadBuffer()

    /// A buffer used on ``queue`` only, hence `@unchecked Sendable`.
    final class ReadBuffer: @unchecked Sendable {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
    }
    private let state = Mutex(State())
    /// Entered as a channel opens, left as its socket goes back to libmicrohttpd, so that
    /// ``closeAll()`` returns only once libmicrohttpd holds no upgraded connection of ours.
    private let open = DispatchGroup()

    private struct State {
        var isOpen = true
        var channels: [UUID: WebSocketChannel] = [:]
        /// The paced scripts' waits for their next action (``after(_:_:)``).
        var waits: [UUID: Task<Void, Never>] = [:]
    }

    init(
        store: MessageStubStore, mappingRoute: @escaping @Sendable (String) -> Route?, messageLimit: Int,
        random: RandomSource, clock: any Clock<Duration>
    ) {
        self.store = store
        self.mappingRoute = mappingRoute
        self.messageLimit = messageLimit
        pendingLimit = max(4 * 1024 * 1024, 2 * messageLimit)
        self.random = random
        self.clock = clock
    }

    /// Takes an upgraded socket from libmicrohttpd, with the bytes it read past the handshake;
    /// `log` names the channel's close.
    func open(socket: Int32, handle: OpaquePointer, extra: Data, request: StubRequest, log: RequestLog?) {
        let channel = WebSocketChannel(
            summary: MessageJournal.ChannelSummary(id: UUID(), request: request, opened: Date()), socket: socket,
            handle: handle, channels: self, log: log)
        open.enter()
        let isOpen = state.withLock { state in
            if state.isOpen { state.channels[channel.summary.id] = channel }
            return state.isOpen
        }
        if isOpen { activity.tell(.opened(channel.summary)) }
        queue.async { [self] in
            if isOpen {
                // Before what the client sent with the handshake is read: a greeting comes first.
                if let stub = store.stub(triggeredByOpening: request) {
                    act(stub, triggeredBy: nil, on: request, from: channel)
                }
                channel.start(with: extra)
            } else {
                channel.stop()
            }
        }
    }

    /// The open channels, oldest first.
    var channels: [MessageJournal.ChannelSummary] {
        state.withLock { $0.channels.values.map(\.summary) }.sorted { $0.opened < $1.opened }
    }

    /// The open channels whose initiating request `pattern` matches (every one for `nil`).
    func channels(matching pattern: RequestPattern?) -> [WebSocketChannel] {
        state.withLock { Array($0.channels.values) }.filter { pattern?.matches($0.summary.request) ?? true }
            .sorted { $0.summary.opened < $1.summary.opened }
    }

    /// Sends `message` to the open channels whose initiating request `pattern` matches: the
    /// admin API's push. Returns the channels it went to.
    func send(_ message: ChannelMessage, toChannelsMatching pattern: RequestPattern?) async
        -> [MessageJournal.ChannelSummary]
    {
        await withCheckedContinuation { continuation in
            queue.async { [self] in
                let targets = channels(matching: pattern)
                for target in targets { target.send(message, by: nil) }
                continuation.resume(returning: targets.map(\.summary))
            }
        }
    }

    /// A whole message arrived on `channel`: journaled, and answered by the message stub it triggers.
    /// On ``queue``.
    func received(_ message: ChannelMessage, on channel: WebSocketChannel) {
        let request = channel.summary.request
        let stub = store.stub(triggeredBy: message, on: request)
        note(.init(kind: .received, channel: channel.summary, message: message, stubID: stub?.stub.id), on: channel)
        guard let stub else { return }
        act(stub, triggeredBy: message, on: request, from: channel)
    }

    /// The server answers the HTTP `request`, by the stub registered for `route` (`nil`: its 404):
    /// every message stub it sets off acts, in order of priority, as WireMock's do. On any thread.
    func answered(_ request: StubRequest, by route: Route?) {
        // Most servers have no such stub: they pay for a look under the store's lock, no more.
        guard store.hasHTTPTriggers else { return }
        let stubs = store.stubs(triggeredByAnswerTo: request, by: route, mappingRoute: mappingRoute)
        guard !stubs.isEmpty else { return }
        queue.async { [self] in
            for stub in stubs { act(stub, triggeredBy: nil, on: request, from: nil) }
        }
    }

    /// Does what `stub` says, set off by `message` on `channel`, which `request` opened, or by the
    /// HTTP `request` (`message` and `channel` `nil`): its actions in order, each once its delay
    /// has passed on the engine's clock, from the one at `first` on; the delay of `first` has passed when
    /// `waited`. On ``queue``.
    private func act(
        _ stub: MessageStubStore.Compiled, startingAt first: Int = 0, waited: Bool = false,
        triggeredBy message: ChannelMessage?, on request: StubRequest, from channel: WebSocketChannel?
    ) {
        for index in stub.stub.actions.indices.dropFirst(first) {
            let action = stub.stub.actions[index]
            let delay = waited && index == first ? .zero : action.delay.sample(from: random)
            guard delay == .zero else {
                after(delay) { [self] in
                    act(stub, startingAt: index, waited: true, triggeredBy: message, on: request, from: channel)
                }
                return
            }
            // No originating channel for an HTTP trigger: the store refuses such a stub.
            let targets = stub.targets[index].map { channels(matching: $0) } ?? channel.map { [$0] } ?? []
            guard case .send = action.kind else {
                for target in targets { target.act(action.kind) }
                continue
            }
            // A template that cannot render for this message sends nothing, as a stub's would fail.
            guard
                let sent = try? stub.message(ofAction: index, triggeredBy: message, on: request, random: random)
            else { continue }
            for target in targets { target.send(sent, by: stub.stub.id) }
        }
    }

    /// Runs `then` on ``queue`` once `delay` has passed on the engine's clock, waiting off the
    /// queue, which the other sockets need. ``closeAll()`` cancels the wait, so that a paced
    /// script never outlives the server.
    private func after(_ delay: Duration, _ then: @escaping @Sendable () -> Void) {
        let id = UUID()
        state.withLock { state in
            guard state.isOpen else { return }
            // Made under the lock that its end takes, so that it is in the table before it leaves.
            state.waits[id] = ServingExecutor.task { [self, clock] in
                let slept: Void? = try? await clock.sleepOnTimer(for: delay)
                let isAwaited = self.state.withLock { $0.waits.removeValue(forKey: id) != nil }
                guard slept != nil, isAwaited else { return }
                queue.async(execute: then)
            }
        }
    }

    /// How many paced scripts wait for their next action.
    var waitingScripts: Int { state.withLock { $0.waits.count } }

    /// Journals `event` of `channel`, counts it for the channel's close, and tells the dashboard. On ``queue``.
    func note(_ event: MessageJournal.Event, on channel: WebSocketChannel) {
        journal.record(event)
        if event.kind == .received { channel.tally.received += 1 } else { channel.tally.sent += 1 }
        activity.tell(.message(event))
    }

    /// `channel` is closed: no longer open; its close logged and told. On ``queue``.
    func closed(_ channel: WebSocketChannel) {
        state.withLock { _ = $0.channels.removeValue(forKey: channel.summary.id) }
        let close = ChannelClose(
            frame: channel.closeFrame, received: channel.tally.received, sent: channel.tally.sent,
            nanoseconds: Int64(Date().timeIntervalSince(channel.summary.opened) * 1e9))
        let request = channel.summary.request
        channel.log?.append(
            RequestLog.Record(
                method: request.method, target: request.target, status: 101, fault: nil,
                answeredBy: .channelClosed(close), nanoseconds: close.nanoseconds))
        activity.tell(.closed(channel.summary, close))
    }

    /// `channel`'s socket is back with libmicrohttpd. On ``queue``.
    func gaveBack(_: WebSocketChannel) {
        open.leave()
    }

    /// Closes every channel, `1001` going away, cancels every paced script's wait, and hands every
    /// socket back to libmicrohttpd; later upgrades are closed at once until ``reopen()``. Returns once libmicrohttpd holds none, as
    /// it must before the daemon stops.
    func closeAll() {
        let channels = state.withLock { state in
            state.isOpen = false
            for wait in state.waits.values { wait.cancel() }
            state.waits = [:]
            return Array(state.channels.values)
        }
        queue.sync {
            for channel in channels { channel.stop() }
        }
        open.wait()
    }

    /// Takes channels again, after ``closeAll()``, for a server started again.
    func reopen() {
        state.withLock { $0.isOpen = true }
    }
}
