public import Decoy
public import DecoyServer
public import DecoyTesting

extension MockServer: RequestRecording {
    /// The journal of the engine the server answers from.
    public var journal: RequestJournal { engine.journal }
}
