public import Decoy
public import DecoyServer
public import DecoyTesting

extension MockServer: RequestRecording {
    /// The journal of the engine the server answers from.
    public var journal: RequestJournal { engine.journal }
    /// The server's dashboard, while it runs with its admin API on.
    public var dashboardURL: String? {
        isRunning && configuration.adminAccess != .off ? "\(baseURL)/__admin/dashboard" : nil
    }
}
