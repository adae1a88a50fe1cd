public import Decoy
public import DecoyServer
public import DecoyTesting

extension MockServer: MessageRecording {
    /// The events of the server's message journal that `pattern` matches, oldest first, once there
    /// are `count` of them, or those there are once `timeout` has passed, in real time whatever
    /// clock the engine runs on. Throws when `pattern`'s route does not compile.
    public func messageEvents(matching pattern: MessagePattern, count: Int, timeout: Duration) async throws
        -> [MessageEvent]
    {
        try await messageJournalEvents(matching: pattern, count: count, timeout: timeout)
    }

    /// Every event of the server's message journal, oldest first.
    public func messageEvents() async throws -> [MessageEvent] { messageJournalEvents }
}
