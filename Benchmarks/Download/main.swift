// Downloads a large body to a file through APIClient and URLSessionTransport, the way an app
// does, and prints the resident memory before and at its peak: the body must stream to the file,
// never be held whole. Run by ../scripts/benchmarks download against `decoy serve`.
import DecoyClient
import Foundation

/// A field of /proc/self/status, in megabytes: VmRSS now, VmHWM the peak so far.
func megabytes(_ field: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let base = URL(string: arguments[1]) else {
    print("usage: DownloadBench BASE_URL PATH")
    exit(2)
}
let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-download-bench-\(UUID())")
defer { try? FileManager.default.removeItem(at: file) }
let client = APIClient(baseURL: base)
// A small request first, so that the session, its threads and libcurl are part of the baseline.
_ = try? await client.send(Resource<Void>.head(arguments[2]))
let before = megabytes("VmRSS")
let start = ContinuousClock.now
let download = client.download(Resource<Void>.get(arguments[2]), to: file)
var steps = 0
for await _ in download.progress { steps += 1 }
let head = try await download.value
let elapsed = ContinuousClock.now - start
let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
print(
    String(
        format: "download: %d bytes (status %d) in %.2f s, %d progress steps; resident %.1f MB before, peak %.1f MB",
        size, head.status.code, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        steps, before, megabytes("VmHWM")))
