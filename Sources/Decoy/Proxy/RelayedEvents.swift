package import DecoyClient
import Foundation
import OpenAPIRuntime

/// An upstream's event stream (`text/event-stream`) that a ``ProxyStub`` hands on to its client
/// as each piece arrives, noting each event and when it came, so that a recording can write the
/// stream as an event-stream stub with its gaps.
///
/// The bytes go on as the upstream sent them; the events are read from them, beside the relay, by
/// the parser ``APIClient/events(for:)`` uses (swift-openapi-runtime's), which keeps `id`, `event`,
/// `data` and `retry` and drops comments. Arrival is timed on the continuous clock, because the
/// upstream is a real server whatever clock the engine keeps. What is noted is bounded as an
/// ``EventStream`` is: once the events would exceed ``EventStream/maximumEventCount`` or
/// ``EventStream/maximumPassSize``, the relay goes on and noting stops.
package final class RelayedEvents: Sendable {
    /// What the stream has shown so far.
    package struct Noted: Sendable {
        /// The events, each with the gap before it (from the head, for the first) as its delay,
        /// rounded to the millisecond.
        package var events: [ServerEvent] = []
        /// Whether the upstream ended the stream; `false` while it goes on (or when the client left first).
        package var isEnded = false
        /// Whether events came that were not noted, past the bounds.
        package var isTruncated = false
        fileprivate var size = 0
        fileprivate var lastOffset = Duration.zero
    }

    private let body: ResponseBody
    private let state = Mutex(Noted())
    /// When the upstream's head arrived, which its events' times count from, as the upstream
    /// counts them from sending it.
    private let headArrived = ContinuousClock.now

    /// A relay of `body`, the upstream's event stream, whose head has just arrived; it is read
    /// once, by the serving.
    package init(_ body: ResponseBody) {
        self.body = body
    }

    /// The events noted so far, and whether the stream ended.
    package var noted: Noted { state.withLock { $0 } }

    /// A reader of the bytes as they arrive, for the one serving that sends them.
    func reader() -> Reader { Reader(relay: self) }

    private func note(_ event: OpenAPIRuntime.ServerSentEvent, at offset: Duration) {
        state.withLock { state in
            let size = [event.id, event.event, event.data].reduce(0) { $0 + ($1?.utf8.count ?? 0) }
            guard !state.isTruncated, size <= EventStream.maximumEventSize,
                state.events.count < EventStream.maximumEventCount, state.size + size <= EventStream.maximumPassSize
            else {
                state.isTruncated = true
                return
            }
            let gap = ((offset - state.lastOffset) / .milliseconds(1)).rounded()
            state.lastOffset = offset
            state.size += size
            state.events.append(
                ServerEvent(
                    id: event.id, event: event.event, data: event.data,
                    retry: event.retry.map { .milliseconds($0) }, delay: .fixed(.milliseconds(Int(gap)))))
        }
    }

    private func end() {
        state.withLock { $0.isEnded = true }
    }

    /// Reads the upstream's bytes for a serving, and hands each chunk, timed, to the parser.
    struct Reader {
        private let relay: RelayedEvents
        private var upstream: ResponseBody.AsyncIterator
        private let chunks: Feed
        private let parsing: Task<Void, Never>

        init(relay: RelayedEvents) {
            self.relay = relay
            upstream = relay.body.makeAsyncIterator()
            let (stream, chunks) = AsyncStream<(Data, Duration)>.makeStream()
            self.chunks = Feed(chunks)
            parsing = Task {
                // The offset of the chunk the parser read last: an event is noted when the chunk
                // that ends it arrived.
                let arrival = Mutex(Duration.zero)
                let bytes = stream.map { chunk, offset in
                    arrival.withLock { $0 = offset }
                    return ArraySlice(chunk)
                }
                do {
                    for try await event in bytes.asDecodedServerSentEvents() {
                        relay.note(event, at: arrival.withLock { $0 })
                    }
                } catch {
                    // The parser throws only on bytes it cannot read as text; what came before is kept.
                }
            }
        }

        /// The next chunk as it arrives; `nil` at the stream's end, once every event in it is noted.
        /// The upstream breaking off breaks the client's stream the same way.
        mutating func next() async throws -> Data? {
            do {
                guard let chunk = try await upstream.next() else {
                    chunks.continuation.finish()
                    await parsing.value
                    relay.end()
                    return nil
                }
                // From the head's arrival: the serving asks for the first chunk only once it has
                // answered the head, later on a busy machine, and events counted from then came early.
                chunks.continuation.yield((chunk, ContinuousClock.now - relay.headArrived))
                return chunk
            } catch is CancellationError {
                chunks.continuation.finish()
                throw CancellationError()
            } catch {
                chunks.continuation.finish()
                throw BrokenBody(fault: .connectionReset)
            }
        }
    }

    /// The parser's chunks, finished when the last copy of a reader goes, so that a client that
    /// leaves mid-stream leaves no parser waiting.
    private final class Feed: Sendable {
        let continuation: AsyncStream<(Data, Duration)>.Continuation

        init(_ continuation: AsyncStream<(Data, Duration)>.Continuation) {
            self.continuation = continuation
        }

        deinit {
            continuation.finish()
        }
    }
}
