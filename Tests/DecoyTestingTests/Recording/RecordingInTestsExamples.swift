// swift-format-ignore-file
// What docs/recording.md shows of recording in tests, checked: the folder beside this file holds
// the greeting, so the examples replay it and reach no network.
import Decoy
import DecoyClient
import DecoyServer
import DecoyStubFiles
import DecoyTesting
import Foundation
import Testing
import XCTest

struct Greeting: Decodable {
    let text: String
}

@Suite("Recording in tests, as documented")
struct RecordingInTestsExamples {
    @Test(.recording("Recordings/greeting", upstream: URL(string: "http://127.0.0.1:9000")!, mode: .missing))
    func greets() async throws {
        let registry = try #require(FolderRecorder.current).registry
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:9000")!, transport: StubTransport(registry))
        let greeting = try await client.send(Resource<Greeting>.get("/greeting"))
        #expect(greeting.text == "Hello")
    }

    @Test func aServerAnswersFromTheRecorder() async throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Recordings/greeting")
        let upstream = URL(string: "http://127.0.0.1:9000")!
        let recorder = try FolderRecorder(folder: folder, upstream: upstream, mode: .missing)
        let server = MockServer(registry: recorder.registry)
        try server.start()
        let greeting = try await APIClient(baseURL: server.baseURL).send(Resource<Greeting>.get("/greeting"))
        server.stop()
        try recorder.finish()
        #expect(greeting.text == "Hello")
    }
}

final class GreetingTests: XCTestCase {
    func testGreets() async throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Recordings/greeting")
        let upstream = URL(string: "http://127.0.0.1:9000")!
        try await withRecording(into: folder, upstream: upstream, mode: .missing) { recorder in
            let client = APIClient(baseURL: upstream, transport: StubTransport(recorder.registry))
            let greeting = try await client.send(Resource<Greeting>.get("/greeting"))
            XCTAssertEqual(greeting.text, "Hello")
        }
    }
}
