import Decoy
import DecoyClient
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The trait and the helper around a test, replaying the folder beside this file.
@Suite("Recording in tests: the trait and the helper")
struct RecordingTraitTests {
    static let greeting = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/greeting")

    @Test(.recording("Recordings/greeting", upstream: URL(string: "http://127.0.0.1:1")!))
    func theTraitReplaysTheFolderBesideTheTest() async throws {
        let recorder = try #require(FolderRecorder.current)
        #expect(recorder.mode == .none || ProcessInfo.processInfo.environment["DECOY_RECORD"] != nil)
        #expect(recorder.folder.path.hasSuffix("Tests/DecoyTestingTests/Recording/Recordings/greeting"))
        let (response, body) = try await StubTransport(recorder.registry).send(Self.greeting, body: nil)
        #expect(response.status == .ok)
        #expect(String(decoding: body, as: UTF8.self) == #"{"text":"Hello"}"#)
    }

    @Test func theHelperFailsTheTestNamingARequestWithNoStoredAnswer() async throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Recordings/greeting")
        let unknown = HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/farewell")
        let recorded = RecordedIssues()
        try await withKnownIssue {
            try await withRecording(into: folder, upstream: URL(string: "http://127.0.0.1:1")!) { recorder in
                _ = try await StubTransport(recorder.registry).send(unknown, body: nil)
            }
        } matching: { issue in
            recorded.append(issue)
            return true
        }
        #expect(
            recorded.all.map(\.message) == [
                """
                Recording into \(folder.path) failed:
                  GET /farewell has no stored answer in \(folder.path) (record mode none); record it with DECOY_RECORD=missing
                """
            ])
        #expect(recorded.all.first?.fileID == #fileID)
    }
}
