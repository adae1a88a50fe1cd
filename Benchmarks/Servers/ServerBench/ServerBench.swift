import Decoy
import DecoyServer
import Foundation

/// A MockServer for load tests: `ServerBench PORT STUBS [DELAY_MS]`.
///
/// Registers `/stub/0` … `/stub/{STUBS-1}`, in that order, each answering the 99-byte JSON body
/// the peer servers in shared/bench answer with, `/delay` answering it after DELAY_MS, and
/// `/tick` after 1 ms, to start the task pool before a benchmark counts threads.
/// The journal is on, as in a test. Prints its URL, then serves until SIGTERM or SIGINT.
@main
struct ServerBench {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        guard arguments.count >= 2 else {
            print("usage: ServerBench PORT STUBS [DELAY_MS]")
            exit(2)
        }
        let body =
            #"{"id":42,"name":"benchmark-stub","status":"ok","tags":["alpha","beta"],"message":"hello from stub"}"#
        let registry = StubRegistry()
        for index in 0..<arguments[1] {
            try registry.register(StubResponse(json: body), for: .get("/stub/\(index)"))
        }
        let delay = arguments.count > 2 ? arguments[2] : 1_000
        try registry.register(StubResponse(json: body, delay: .fixed(.milliseconds(delay))), for: .get("/delay"))
        try registry.register(StubResponse(json: body, delay: .fixed(.milliseconds(1))), for: .get("/tick"))
        let server = MockServer(registry: registry, configuration: .init(port: UInt16(arguments[0])))
        try server.start()
        FileHandle.standardOutput.write(Data("\(server.baseURL)\n".utf8))
        for number in [SIGINT, SIGTERM] { signal(number, SIG_IGN) }
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { server.stop() }
            source.resume()
            return source
        }
        try await server.run()
        withExtendedLifetime(sources) {}
    }
}
