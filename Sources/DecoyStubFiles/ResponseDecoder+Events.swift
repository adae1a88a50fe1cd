import Decoy
import Foundation
import HTTPTypes
import Yams

/// A response's `events`: Decoy's event stream, each event's fields as the event-stream format
/// names them and its delay as a response's, `delayMilliseconds` or `delayDistribution`.
extension ResponseDecoder {
    /// The fields of a response that shape its event stream.
    static let eventStreamFields = ["events", "eventsThen", "eventsRepeat"]
    /// The fields of one event.
    static let eventFields = ["id", "event", "data", "retry", "comment", "delayMilliseconds", "delayDistribution"]
    /// The body and pacing fields an event stream takes the place of.
    private static let replacedByEvents = [
        "body", "jsonBody", "base64Body", "bodyFileName", "chunkedDribbleDelay", "bytesPerSecond", "fault",
    ]

    /// The stream the response's `events` describe, `.some(nil)` when it has none; `nil` after
    /// logging every problem in it, each at its field.
    func eventStream(_ object: FileObject) -> EventStream?? {
        guard let node = object["events"] else {
            for key in ["eventsThen", "eventsRepeat"] { object[key]?.error("\"\(key)\" goes with \"events\"") }
            return .some(nil)
        }
        var valid = true
        for key in Self.replacedByEvents where object[key] != nil {
            object[key]?.error("an event stream's events are its body: give \"events\" or \"\(key)\", not both")
            valid = false
        }
        guard let elements = node.list("a list of events") else { return nil }
        // Counted before any is read: a million events is refused without reading them.
        guard elements.count <= EventStream.maximumEventCount else {
            node.error("an event stream has at most \(EventStream.maximumEventCount) events, not \(elements.count)")
            return nil
        }
        var events: [ServerEvent] = []
        for element in elements {
            if let event = event(element) { events.append(event) } else { valid = false }
        }
        let ending = object["eventsThen"].map(ending) ?? .close
        let repeats = object["eventsRepeat"].map(repeats) ?? .times(1)
        guard valid, let ending, let repeats else { return nil }
        do {
            return .some(try EventStream(events, then: ending, repeats: repeats))
        } catch {
            node.error(error.description)
            return nil
        }
    }

    private func event(_ node: FileNode) -> ServerEvent? {
        guard let object = node.object(known: Self.eventFields, "an event, an object") else { return nil }
        var valid = true
        func text(_ key: String) -> String? {
            guard let member = object[key] else { return nil }
            guard let text = member.text() else {
                valid = false
                return nil
            }
            return text
        }
        let data: String? = object["data"].flatMap { member in
            switch member.node {
            case .mapping, .sequence: JSONText.of(member.node)
            default:
                member.text("text, or JSON as an object or a list").map { $0 }
                    ?? {
                        valid = false
                        return nil
                    }()
            }
        }
        let retry = object["retry"].flatMap { member in
            member.integer(in: 0...Int(Int32.max), "a whole number of milliseconds").map(Duration.milliseconds)
                ?? {
                    valid = false
                    return nil
                }()
        }
        let delay = Self.delay(object, fixed: "delayMilliseconds")
        let event = ServerEvent(
            id: text("id"), event: text("event"), data: data, retry: retry, comment: text("comment"),
            delay: delay ?? .none)
        guard valid, delay != nil else { return nil }
        return event
    }

    /// `eventsThen`: `close`, `stayOpen`, or a fault's name, which breaks the stream its way.
    private func ending(_ node: FileNode) -> EventStream.Ending? {
        let faults = StubFileFormat.faults.keys.sorted().joined(separator: ", ")
        switch node.text() {
        case "close": return .close
        case "stayOpen": return .stayOpen
        case let name?:
            if let fault = StubFileFormat.faults[name] { return .fault(fault) }
            return node.expected("close, stayOpen or a fault (\(faults))")
        case nil: return nil
        }
    }

    /// `eventsRepeat`: a number of passes, or `forever`.
    private func repeats(_ node: FileNode) -> EventStream.Repeats? {
        if case .scalar(let scalar) = node.node, scalar.string == "forever" { return .forever }
        return node.integer(in: 1...EventStream.maximumRepeats, "a number of passes from 1, or \"forever\"").map {
            .times($0)
        }
    }
}
