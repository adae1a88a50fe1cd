// What a UI test's journal assertion costs through RemoteDecoy, with 10 and with 10,000 requests in
// the server's journal: `expect` (the server counts) against `journal()` then `expect` (the whole
// journal read back). The two servers are measured in turns, round by round; medians printed.
import Decoy
import DecoyRemote
import DecoyServer
import Foundation
import HTTPTypes
import Timing

func server(holding count: Int) async throws -> MockServer {
    let registry = StubRegistry(journalLimit: 20_000)
    try registry.register(StubResponse(status: .created), for: .post("/users"))
    try registry.register(StubResponse(json: "[]"), for: .get("/users"))
    // Through the in-process serving, journaled as a served request is, without a socket per request.
    let transport = StubTransport(registry)
    for index in 0..<count {
        _ = try await transport.send(
            HTTPRequest(
                method: index == 0 ? .post : .get, scheme: "http", authority: "api.test",
                path: index == 0 ? "/users" : "/users?page=\(index)"),
            body: nil)
    }
    let server = MockServer(registry: registry)
    try server.start()
    return server
}

let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 15
let sizes = [10, 10_000]
var servers: [Int: MockServer] = [:]
for size in sizes { servers[size] = try await server(holding: size) }
var counted: [Int: [Double]] = [:]
var read: [Int: [Double]] = [:]
for round in 0..<rounds {
    for size in sizes {
        let decoy = RemoteDecoy(baseURL: servers[size]!.baseURL)
        let countTime = try await milliseconds { try await decoy.expect(.post("/users"), count: .once) }
        // The first round warms connections and caches; it is not counted.
        if round > 0 { counted[size, default: []].append(countTime) }
        if round > 0 || size == 10 {
            let readTime = try await milliseconds { _ = try await decoy.journal().entries.count }
            if round > 0 { read[size, default: []].append(readTime) }
        }
    }
}
print("RemoteDecoy journal assertions, \(rounds - 1) rounds, servers alternated (medians, ms)")
print("requests in journal   expect (server counts)   journal() read back")
for size in sizes {
    let line = String(format: "%19d   %22.2f   %19.2f", size, median(counted[size]!), median(read[size]!))
    print(line)
}
print(
    String(
        format: "expect, 10,000 ÷ 10 requests: %.2f", median(counted[10_000]!) / median(counted[10]!)))
for server in servers.values { server.stop() }
