import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decoy record` itself: it writes its recording when a signal stops it, and the folder then
/// serves the same answers. A process of its own, as only a process can receive the signal.
@Suite("decoy record")
struct RecordCommandTests {
    @Test(needsPython) func writesWhatPassedThroughWhenStopped() async throws {
        let upstreamRegistry = StubRegistry()
        try upstreamRegistry.register(StubResponse(json: #"{"id":1}"#), for: .get("/users/1"))
        try upstreamRegistry.register(
            SequenceStub(first: [StubResponse(text: "first")], then: StubResponse(text: "then")), for: .get("/poll"))
        try await withMockServer(registry: upstreamRegistry) { upstream in
            let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-record-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(
                at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
            try Data(
                #"{"request": {"method": "GET", "urlPath": "/stubbed"}, "response": {"body": "from the folder"}}"#.utf8
            )
            .write(to: folder.appending(path: "mappings/stubbed.json"))

            let recorder = try await ServedProcess.start(arguments: [
                "record", "--target", upstream.baseURL.absoluteString, folder.path, "--port", "0",
            ])
            let session = URLSession(configuration: .ephemeral)
            func visit(_ baseURL: String) async throws -> [String] {
                var seen: [String] = []
                for target in ["/users/1", "/poll", "/poll", "/poll", "/stubbed"] {
                    let (data, response) = try await session.data(from: URL(string: baseURL + target)!)
                    seen.append(
                        "\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self))")
                }
                return seen
            }
            let live = try await visit(recorder.baseURL)
            #expect(live == [#"200 {"id":1}"#, "200 first", "200 then", "200 then", "200 from the folder"])
            #expect(try await recorder.stop(with: SIGINT) == 0)

            let written = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "mappings").path)
                .sorted()
            #expect(
                written == ["get-poll-2.json", "get-poll-3.json", "get-poll.json", "get-users-1.json", "stubbed.json"])
            #expect(upstreamRegistry.journal.entries.count == 4)
            let playback = StubRegistry()
            try playback.load(folder: folder)
            try await withMockServer(registry: playback) { server throws in
                #expect(try await visit(server.baseURL.absoluteString) == live)
            }
            // And over HTTPS, from decoy serve with an HTTPS port alone.
            let authority = FileManager.default.temporaryDirectory.appending(path: "decoy-ca-\(UUID().uuidString).pem")
                .path
            defer { try? FileManager.default.removeItem(atPath: authority) }
            let replay = try await ServedProcess.start(arguments: [
                "serve", folder.path, "--https-port", "0", "--tls-ca-out", authority, "--log", "none",
            ])
            defer { replay.terminate() }
            let port = try #require(URL(string: replay.baseURL)?.port)
            let overHTTPS = try await fetchOverHTTPS(
                port: port, authority: authority, paths: ["/users/1", "/poll", "/poll", "/poll", "/stubbed"])
            #expect(overHTTPS == live)
        }
    }
}
