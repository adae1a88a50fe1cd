public import Decoy
public import DecoyClient
public import Foundation
import HTTPTypes

/// Records a test's traffic into a stubs folder, and replays it: the stored answer when there is
/// one, the real API's otherwise, as its ``RecordMode`` says.
///
/// Its ``registry`` answers the test through any serving (`StubTransport`, a session from
/// `URLSession.stubbed(by:)`, `withSharedSessionIntercepted`, a `MockServer`). ``finish()`` writes
/// what the upstream answered into the folder in the stub-file format `decoy record` writes, with
/// the same redaction of secrets: one file per request under `mappings/`, a repeated request's
/// answers as a sequence, binary bodies under `__files/`. The names come from the requests, the
/// `id`s from the names, and the proxy leaves out the `Date` field, so recording an API that has not
/// changed again leaves the files as they were.
///
/// `DecoyTesting` runs one around a test: the `.recording(…)` trait in Swift Testing,
/// `withRecording(into:upstream:mode:)` anywhere, XCTest included.
public final class FolderRecorder: Sendable {
    /// The recorder of the test that runs, set by the `.recording(…)` trait of `DecoyTesting`.
    @TaskLocal public static var current: FolderRecorder?

    /// The environment variable that overrides every test's record mode: `DECOY_RECORD`.
    public static let environmentVariable = "DECOY_RECORD"

    /// The stubs folder replayed and recorded into.
    public let folder: URL
    /// The real API's base URL: a request's target is appended to it.
    public let upstream: URL
    /// The mode in force: the one asked for, or the environment variable's.
    public let mode: RecordMode
    /// The stubs the test is answered from: the folder's, and a proxy to the upstream while recording.
    public let registry: StubRegistry

    private let recording: StubRecording
    /// The proxy's route while recording; `nil` while replaying only.
    private let proxyRoute: Route?
    private let claim: FolderClaim?

    /// Loads `folder` (unless `mode` is ``RecordMode/all``) and, when the mode records, sends what
    /// it has no answer for to `upstream`.
    ///
    /// - Parameters:
    ///   - folder: the stubs folder; made when it does not exist.
    ///   - upstream: the real API's base URL.
    ///   - mode: when to reach the upstream; the environment variable `DECOY_RECORD` overrides it.
    ///     By default ``RecordMode/none``: replay only, so a test reaches the network only when asked to.
    ///   - redaction: the secrets hidden in the files, by default those the client's log hides.
    ///   - registry: the registry to answer from; a new one by default.
    ///   - environment: where `DECOY_RECORD` is read; the process's by default.
    /// - Throws: when the folder does not load, `DECOY_RECORD` names no mode, or the mode replaces
    ///   files (``RecordMode/all``, ``RecordMode/once``) and another recorder in this process
    ///   records into the same folder.
    public init(
        folder: URL, upstream: URL, mode: RecordMode = .none, redaction: LogRedaction = LogRedaction(),
        registry: StubRegistry = StubRegistry(), environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DecoyError) {
        self.folder = folder
        self.upstream = upstream
        self.registry = registry
        self.mode = try RecordMode.resolved(mode, environment: environment)
        var recording = StubRecording(redaction: redaction, bodyFiles: .binaryOnly)
        recording.repeats = .sequence
        recording.stableIDs = true
        self.recording = recording

        var records = self.mode != .none
        if self.mode != .all, FileManager.default.fileExists(atPath: folder.path) {
            let report = try registry.load(folder: folder, strict: true)
            if self.mode == .once, !report.stubs.isEmpty { records = false }
        }
        guard records else {
            (proxyRoute, claim) = (nil, nil)
            return
        }
        // Recorders that only add files merge, each taking names no file has; one that replaces
        // files by name must be alone, or two would write different requests under one name.
        claim = self.mode == .missing ? nil : try FolderClaim(folder)
        // Behind every stored stub, at the lowest priority a stub file can write.
        let route = Route(method: nil, path: "/**", priority: Int(Int32.max))
        try registry.register(ProxyStub(to: upstream), for: route)
        proxyRoute = route
    }

    /// Writes what the upstream answered into the folder (what is written whole, each file
    /// written then renamed into place), and says what went wrong.
    ///
    /// - Returns: the mapping files written.
    /// - Throws: ``DecoyError/recordingFailed(folder:problems:)`` naming each request that had no
    ///   stored answer while only replaying, and each that did not reach the upstream, with the
    ///   transport's error; or the error of a file that cannot be written.
    @discardableResult
    public func finish() throws(DecoyError) -> [URL] {
        defer { claim?.release() }
        var proxied: [StubRecording.Proxied] = []
        var problems: [String] = []
        for entry in registry.journal.entries {
            if proxyRoute == nil, !entry.isMatched {
                problems.append(
                    "\(entry.request) has no stored answer in \(folder.path) (record mode \(mode.rawValue)); "
                        + "record it with \(Self.environmentVariable)=missing")
            } else if let proxyRoute, entry.route == proxyRoute {
                if case .proxyFailure(let code, let reason)? = entry.fault {
                    problems.append(
                        "\(entry.request) did not reach \(upstream.absoluteString): \(reason) (URLError \(code.rawValue))"
                    )
                } else if entry.fault == nil {
                    proxied.append(StubRecording.Proxied(request: entry.request, response: entry.response))
                }
            }
        }
        let written = try recording.write(
            recording.mappings(from: proxied), to: folder, naming: mode == .missing ? .free : .replacing)
        guard problems.isEmpty else { throw DecoyError.recordingFailed(folder: folder.path, problems: problems) }
        return written
    }
}

extension StubRecording.BodyFiles {
    /// Binary bodies in files of their own, text in its mapping, where a diff shows it.
    static let binaryOnly = StubRecording.BodyFiles(textAbove: .max, binaryAbove: 0)
}

/// A folder a recorder of this process replaces files in, so that a second recorder into it is
/// refused clearly rather than mixing its requests' names with the first's.
private final class FolderClaim: Sendable {
    private static let claimed = Mutex<Set<String>>([])
    private let path: String
    private let held = Mutex(true)

    init(_ folder: URL) throws(DecoyError) {
        let path = folder.standardizedFileURL.path
        let claimed = Self.claimed.withLock { $0.insert(path).inserted }
        guard claimed else {
            throw DecoyError.recordingFailed(
                folder: path,
                problems: [
                    "another test in this process records into it: give each test a folder of its own, "
                        + "or serialize the tests"
                ])
        }
        self.path = path
    }

    func release() {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { _ = Self.claimed.withLock { $0.remove(path) } }
    }

    deinit { release() }
}
