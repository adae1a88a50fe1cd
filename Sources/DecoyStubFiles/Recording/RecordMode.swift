import Decoy

/// When a test that records into a stubs folder (``FolderRecorder``) reaches the real API.
///
/// The environment variable `DECOY_RECORD` (``FolderRecorder/environmentVariable``), set to one of
/// the modes' names, overrides the mode a test asks for: `DECOY_RECORD=none` in CI keeps every test
/// off the network, and `DECOY_RECORD=all` re-records every folder.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Replays what is stored; a request with no stored answer goes to the upstream, and its
    /// answer is stored.
    case missing
    /// Re-records every request: nothing stored answers, and each answer replaces the stored one.
    case all
    /// Replays only: a request with no stored answer fails the test, naming the request and the
    /// folder, and never reaches the network. The mode of a test that asks for none.
    case none
    /// Records every request while the folder holds no stubs, and then replays only, as ``none``.
    case once

    /// The mode `asked` for, unless `environment` sets ``FolderRecorder/environmentVariable``.
    ///
    /// - Throws: when the variable holds something other than a mode's name.
    static func resolved(_ asked: RecordMode, environment: [String: String]) throws(DecoyError) -> RecordMode {
        guard let value = environment[FolderRecorder.environmentVariable], !value.isEmpty else { return asked }
        guard let mode = RecordMode(rawValue: value.lowercased()) else {
            throw DecoyError.recordingFailed(
                folder: "any folder",
                problems: [
                    "\(FolderRecorder.environmentVariable)=\(value) is not a record mode: use "
                        + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
                ])
        }
        return mode
    }
}
