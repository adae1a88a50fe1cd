package import Decoy
import DecoyClient
package import Foundation

/// Records what a registry proxies into stub mappings: WireMock's recordings (`start`, `stop`,
/// `status`) and snapshots, for the admin API and `decoy record`.
///
/// Recording puts a proxy to the target behind every stub, at the lowest priority, so that what
/// the registry stubs is answered as before and the rest passes through; stopping takes it away
/// and turns what passed through, read from the journal, into mappings. The mappings are added
/// to the registry and, when it loaded a stubs folder and `persist` holds, written there
/// (`mappings/` and `__files/`) and served from the files.
package final class Recorder: Sendable {
    /// WireMock's recording states.
    package enum Status: String, Sendable {
        case neverStarted = "NeverStarted"
        case recording = "Recording"
        case stopped = "Stopped"
    }

    /// What a recording or a snapshot does with its mappings.
    package struct Options: Sendable {
        /// Whether the mappings are written into the stubs folder.
        package var persist = true
        /// How repeats and secrets are written.
        package var recording = StubRecording()

        package init() {}
    }

    /// A refusal: there is no recording to stop, or the mappings cannot be written.
    package enum Failure: Error, Sendable {
        case notRecording
        case unwritable(DecoyError)
    }

    private struct Session {
        let proxy: StubMapping
        /// Requests journaled after this one are the recording's.
        var lastSequence: Int
        let options: Options
    }

    /// The route of a recording's proxy: every request, at the lowest priority a stub file can write.
    private static let proxyRoute = Route(method: nil, path: "/**", priority: Int(Int32.max))

    private let registry: any RecordingStore
    private let state = Mutex<(status: Status, session: Session?)>((.neverStarted, nil))

    /// A recorder of what `registry` (a ``StubRegistry``, or another provider that can record)
    /// proxies. A server keeps one (``MockServer``'s admin API and `decoy record` share it), so that
    /// no recording is process-wide.
    package init(registry: any RecordingStore) {
        self.registry = registry
    }

    /// Whether a recording runs.
    package var status: Status { state.withLock(\.status) }

    /// Starts proxying to `target` what no stub answers, and recording it; while a recording
    /// runs, does nothing, as WireMock does.
    package func start(target: URL, options: Options = Options()) throws(DecoyError) {
        try state.withLock { (state) throws(DecoyError) in
            guard state.status != .recording else { return }
            let proxy = try registry.register(ProxyStub(to: target), for: Self.proxyRoute)
            state = (.recording, Session(proxy: proxy, lastSequence: registry.journal.totalCount, options: options))
        }
    }

    /// Stops the recording and gives the mappings made of what passed through since it started
    /// (or since the last snapshot), added to the registry and, when asked, written.
    package func stop() throws(Failure) -> [StubRecording.Mapping] {
        let session: Session? = state.withLock { state in
            guard let session = state.session else { return nil }
            state = (.stopped, nil)
            return session
        }
        guard let session else { throw .notRecording }
        registry.remove(session.proxy)
        let exchanges = registry.journal.entries.filter { entry in
            entry.sequence > session.lastSequence && entry.route == session.proxy.route && entry.fault == nil
        }
        return try keep(exchanges, options: session.options)
    }

    /// The mappings made of every proxied answer in the journal, added to the registry and, when
    /// asked, written; a running recording then goes on from here.
    package func snapshot(options: Options = Options()) throws(Failure) -> [StubRecording.Mapping] {
        // The recordings' own proxy too, which a stopped recording took away.
        let proxied = Set(registry.mappings.filter(\.isProxy).map(\.route) + [Self.proxyRoute])
        let entries = registry.journal.entries.filter { $0.fault == nil && $0.route.map(proxied.contains) == true }
        state.withLock { state in
            if let last = entries.last?.sequence, var session = state.session {
                session.lastSequence = max(session.lastSequence, last)
                state.session = session
            }
        }
        return try keep(entries, options: options)
    }

    private func keep(_ entries: [JournalEntry], options: Options) throws(Failure) -> [StubRecording.Mapping] {
        let mappings = options.recording.mappings(
            from: entries.map { StubRecording.Proxied(request: $0.request, response: $0.response) })
        guard !mappings.isEmpty else { return [] }
        do throws(DecoyError) {
            if options.persist, let folder = registry.stubsFolder {
                try options.recording.write(mappings, to: folder)
                try registry.reload(folder: folder, strict: false)
            } else {
                // One import, so that the mappings are added all together or not at all.
                try registry.importMappings(
                    StubRecording.text(of: ["mappings": .array(mappings.map { .object($0.document) })]))
            }
        } catch {
            throw .unwritable(error)
        }
        return mappings
    }
}

extension StubMapping {
    /// Whether the stub proxies: its document answers with `proxyBaseUrl`.
    var isProxy: Bool {
        guard case .object(let members) = document, case .object(let response)? = members["response"] else {
            return false
        }
        return response["proxyBaseUrl"] != nil
    }
}
