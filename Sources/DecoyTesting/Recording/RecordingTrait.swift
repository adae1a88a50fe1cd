#if canImport(Testing)
    public import DecoyClient
    public import DecoyStubFiles
    public import Foundation
    public import Testing

    /// A test that records into a stubs folder and replays from it: Swift Testing's form of
    /// ``withRecording(into:upstream:mode:redaction:fileID:filePath:line:column:isolation:_:)``.
    /// The test reads its recorder from ``FolderRecorder/current``.
    ///
    /// Tests run in parallel: recording into one folder in ``RecordMode/missing`` they merge, but a
    /// second test re-recording (``RecordMode/all``) into a folder another one records into is
    /// refused. For a parameterized test, call `withRecording` with a folder per argument instead.
    public struct RecordingTrait: TestTrait, TestScoping {
        let folder: URL
        let upstream: URL
        let mode: RecordMode
        let redaction: LogRedaction
        let site: CallSite

        /// Runs the test with a ``FolderRecorder`` as ``FolderRecorder/current``, and writes what
        /// it recorded when the test ends.
        public func provideScope(
            for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
        ) async throws {
            try await withRecording(
                into: folder, upstream: upstream, mode: mode, redaction: redaction, fileID: site.fileID,
                filePath: site.filePath, line: site.line, column: site.column
            ) { recorder in
                try await FolderRecorder.$current.withValue(recorder) { try await function() }
            }
        }
    }

    extension Trait where Self == RecordingTrait {
        /// Records the test's traffic into the stubs folder at `path` and replays it, as `mode`
        /// says; a relative path is taken from the folder of the test's source file.
        ///
        /// ```swift
        /// @Test(.recording("Recordings/users", upstream: URL(string: "https://api.example.com")!, mode: .missing))
        /// func loadsAUser() async throws {
        ///     let registry = try #require(FolderRecorder.current).registry
        ///     let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
        ///     …
        /// }
        /// ```
        ///
        /// - Parameters:
        ///   - path: the stubs folder, relative to the test's source file unless it starts with `/`.
        ///   - upstream: the real API's base URL.
        ///   - mode: when to reach the upstream; `DECOY_RECORD` overrides it. By default
        ///     ``RecordMode/none``, replay only.
        ///   - redaction: the secrets hidden in the files.
        public static func recording(
            _ path: String, upstream: URL, mode: RecordMode = .none, redaction: LogRedaction = LogRedaction(),
            fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
            column: UInt = #column
        ) -> Self {
            let folder =
                path.hasPrefix("/")
                ? URL(filePath: path, directoryHint: .isDirectory)
                : URL(filePath: "\(filePath)").deletingLastPathComponent().appending(
                    path: path, directoryHint: .isDirectory)
            return RecordingTrait(
                folder: folder, upstream: upstream, mode: mode, redaction: redaction,
                site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
#endif
