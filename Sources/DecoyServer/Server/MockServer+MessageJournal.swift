package import Decoy
import Foundation

extension MockServer {
    /// The message journal's events `pattern` matches, oldest first, once there are `count` of them,
    /// or those there are once `timeout` has passed: what DecoyServerTesting's message assertions
    /// read. The timeout is real time, whatever clock the engine runs on, as a test's patience is.
    package func messageJournalEvents(matching pattern: MessagePattern, count: Int, timeout: Duration)
        async throws(DecoyError)
        -> [MessageEvent]
    {
        let compiled = try RequestPattern(pattern.route)
        let test: MessageJournal.Pattern = { event in
            (pattern.direction.map { $0.rawValue == event.kind.rawValue } ?? true)
                && compiled.matches(MessagePattern.request(of: event.messageEvent))
        }
        let events = await webSockets.journal.events(
            matching: test, count: count, timeout: timeout, clock: ContinuousClock())
        return events.map(\.messageEvent)
    }

    /// Every event of the message journal, oldest first.
    package var messageJournalEvents: [MessageEvent] { webSockets.journal.events.map(\.messageEvent) }
}

extension MessageJournal.Event {
    /// The event as DecoyTesting and `RemoteDecoy` show it.
    var messageEvent: MessageEvent {
        MessageEvent(
            id: id.uuidString.lowercased(), direction: kind == .received ? .received : .sent, message: message,
            channelID: channel.id.uuidString.lowercased(), channelRequest: channel.request, stubID: stubID, date: date)
    }
}
