import Decoy
public import DecoyClient
public import DecoyStubFiles
public import Foundation

/// Runs `body` with a ``FolderRecorder`` on `folder`: its registry answers from the stored stubs and,
/// as `mode` allows, from `upstream`, whose answers are written into the folder when `body` returns
/// or throws. A request with no stored answer while replaying, or one that did not reach the
/// upstream, fails the test where `withRecording` is called, in XCTest and Swift Testing alike.
///
/// The default mode, ``RecordMode/none``, only replays: a test reaches the network only when it
/// asks for another mode, or the environment variable `DECOY_RECORD` does.
///
/// ```swift
/// try await withRecording(into: folder, upstream: upstream, mode: .missing) { recorder in
///     let client = APIClient(baseURL: upstream, transport: StubTransport(recorder.registry))
///     let user: User = try await client.send(.get("/users/1"))
///     XCTAssertEqual(user.name, "Ada")
/// }
/// ```
///
/// - Throws: what `body` throws, or why the recorder cannot start (the folder does not load,
///   `DECOY_RECORD` names no mode, another test of the process records into the folder).
public func withRecording<Result>(
    into folder: URL, upstream: URL, mode: RecordMode = .none, redaction: LogRedaction = LogRedaction(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FolderRecorder) async throws -> Result
) async throws -> Result {
    let recorder = try FolderRecorder(folder: folder, upstream: upstream, mode: mode, redaction: redaction)
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let result: Result
    do {
        result = try await body(recorder)
    } catch {
        finish(recorder, at: site)
        throw error
    }
    finish(recorder, at: site)
    return result
}

/// Writes what `recorder` recorded, and fails the test at `site` with what went wrong.
private func finish(_ recorder: FolderRecorder, at site: CallSite) {
    do {
        try recorder.finish()
    } catch {
        site.fail(error.description)
    }
}
