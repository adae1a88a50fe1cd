// What recording costs a test, and what replaying a recording costs against the same stubs written
// by hand: `RecordingBench FOLDER [ROUNDS]`.
//
// The upstream is a MockServer on 127.0.0.1 serving RecordedAPI's 1,000 routes. Each round asks
// it for every item twice, in turns: straight through the transport a proxy uses, and through a
// FolderRecorder in `all` mode (StubTransport, the proxy stub, the same transport), whose `finish()`
// then writes the 1,000 files. Recording's cost per request is the difference of the two, plus
// `finish()`'s time per file. Every round's files must be byte for byte the first's, and the first
// round's folder is left at FOLDER for `Instructions`' replay cases. Then that folder, loaded as a
// test loads it, and RecordedAPI's hand-written stubs answer the 1,000 requests in turns, once
// checked to answer the same (JSON compared as JSON). Medians.
import Decoy
import DecoyClient
import DecoyServer
import DecoyStubFiles
import Foundation
import HTTPTypes
import RecordedAPI
import Timing

/// Milliseconds to send `requests` one after the other through `transport`.
func sendAll(_ requests: [HTTPRequest], through transport: any Transport) async throws -> Double {
    try await milliseconds { for request in requests { _ = try await transport.send(request, body: nil) } }
}

/// `body`'s JSON written with its keys sorted: two bodies equal as JSON give the same bytes.
func sortedJSON(_ body: Data) throws -> Data {
    try JSONSerialization.data(
        withJSONObject: JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed),
        options: [.sortedKeys, .fragmentsAllowed])
}

/// Every file under `folder`, by path relative to it, with its bytes.
func contents(of folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = enumerator?.nextObject() as? URL {
        guard !file.hasDirectoryPath else { continue }
        files[String(file.path.dropFirst(folder.path.count))] = try Data(contentsOf: file)
    }
    return files
}

let arguments = CommandLine.arguments.dropFirst()
guard let folderArgument = arguments.first else {
    print("usage: RecordingBench FOLDER [ROUNDS]")
    exit(2)
}
let folder = URL(filePath: folderArgument)
let rounds = Int(arguments.dropFirst().first ?? "") ?? 7
let count = RecordedAPI.count

let upstream = MockServer(registry: try RecordedAPI.handWritten())
try upstream.start()
defer { upstream.stop() }
let proxyTransport = ProxyStub.defaultTransport
let upstreamRequests = (0..<count).map { index in
    HTTPRequest(
        method: .get, scheme: "http", authority: "127.0.0.1:\(upstream.baseURL.port!)",
        path: RecordedAPI.target(index))
}
let requests = (0..<count).map(RecordedAPI.request)

let scratch = FileManager.default.temporaryDirectory.appending(path: "decoy-recording-bench-\(UUID())")
defer { try? FileManager.default.removeItem(at: scratch) }
var direct: [Double] = []
var recorded: [Double] = []
var finished: [Double] = []
var first: [String: Data]?
// Round 0 warms the connections and caches and is not counted.
for round in 0...rounds {
    let roundFolder = scratch.appending(path: "round-\(round)")
    let recorder = try FolderRecorder(folder: roundFolder, upstream: upstream.baseURL, mode: .all, environment: [:])
    let through = StubTransport(recorder.registry)
    // In turns, so that neither always runs on the warmer machine.
    var (straightTime, recordingTime) = (0.0, 0.0)
    if round.isMultiple(of: 2) {
        straightTime = try await sendAll(upstreamRequests, through: proxyTransport)
        recordingTime = try await sendAll(requests, through: through)
    } else {
        recordingTime = try await sendAll(requests, through: through)
        straightTime = try await sendAll(upstreamRequests, through: proxyTransport)
    }
    let finishTime = try await milliseconds { try recorder.finish() }
    let written = try contents(of: roundFolder)
    if let first {
        guard written == first else {
            print("round \(round) wrote different files from round 1: re-recording is not byte-identical")
            exit(1)
        }
    } else if round > 0 {
        first = written
    }
    // Every round's folder stays until the end: a journal-less ext4 skips the inodes deleted in the
    // last seconds when it makes a file, so removing a round's 1,000 files would slow the next
    // round's finish() by the benchmark's own cleanup, which a test recording once never pays.
    guard round > 0 else { continue }
    direct.append(straightTime)
    recorded.append(recordingTime)
    finished.append(finishTime)
}

try? FileManager.default.removeItem(at: folder)
try FileManager.default.copyItem(at: scratch.appending(path: "round-1"), to: folder)
let inFlight = (median(recorded) - median(direct)) / Double(count)
let perFile = median(finished) / Double(count)
print("Recording \(count) requests from a MockServer on 127.0.0.1, \(rounds) rounds (medians, ms)")
print("  per request, straight to the upstream     \(String(format: "%8.3f", median(direct) / Double(count)))")
print("  per request, through a FolderRecorder     \(String(format: "%8.3f", median(recorded) / Double(count)))")
print("  finish(), per file written                \(String(format: "%8.3f", perFile))")
let cost = inFlight + perFile
print(
    "  recording's cost per request (in flight + finish) \(String(format: "%8.3f", cost)) ms  < 1 ms  "
        + (cost < 1 ? "ok" : "MISSED"))

// Replay: the folder loaded as a test loads it, against the same answers registered in code.
let loaded = StubRegistry()
try loaded.load(folder: folder, strict: true)
let replays = [("recorded", StubTransport(loaded)), ("hand-written", StubTransport(try RecordedAPI.handWritten()))]
for request in requests {
    let (recordedAnswer, handWrittenAnswer) = (
        try await replays[0].1.send(request, body: nil), try await replays[1].1.send(request, body: nil)
    )
    guard recordedAnswer.0.status == handWrittenAnswer.0.status,
        try sortedJSON(recordedAnswer.1) == sortedJSON(handWrittenAnswer.1)
    else {
        print("the recording answers \(request.path ?? "") differently from the hand-written stub")
        exit(1)
    }
}
var replayed: [String: [Double]] = [:]
for round in 0...rounds {
    for (name, transport) in round.isMultiple(of: 2) ? replays : replays.reversed() {
        let time = try await milliseconds {
            for _ in 0..<10 { for request in requests { _ = try await transport.send(request, body: nil) } }
        }
        if round > 0 { replayed[name, default: []].append(time * 1000 / Double(10 * count)) }
    }
}
let ratio = median(replayed["recorded"]!) / median(replayed["hand-written"]!)
print("Replaying \(count) stubs through StubTransport, \(rounds) rounds (medians, µs per answer)")
print("  recorded, loaded from the folder          \(String(format: "%8.2f", median(replayed["recorded"]!)))")
print("  hand-written, registered in code          \(String(format: "%8.2f", median(replayed["hand-written"]!)))")
print(
    "  recorded / hand-written                   \(String(format: "%8.2f", ratio))x  <= 1.10x  "
        + (ratio <= 1.1 ? "ok" : "MISSED"))
