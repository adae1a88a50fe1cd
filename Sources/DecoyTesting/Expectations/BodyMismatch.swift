import Decoy
import DecoyClient
import Foundation

/// Why a request's body did not decode, worded by this library rather than by Foundation, whose
/// messages differ between platforms.
struct BodyMismatch: CustomStringConvertible {
    let entry: JournalEntry
    let type: Any.Type
    let error: any Error

    /// Body text past this many characters is cut, as a long body would bury the message.
    static let shownBodyLimit = 200

    var description: String {
        let text = entry.request.bodyText
        let shown = text.count > Self.shownBodyLimit ? "\(text.prefix(Self.shownBodyLimit))…" : text
        return """
            The body of request \(entry.sequence), \(entry), does not decode as \(type): \(reason).
            Body: \(text.isEmpty ? "(empty)" : shown)
            """
    }

    private var reason: String {
        let path = DecodingFailure(error, body: entry.request.body).codingPath
        let place = path.isEmpty ? "the top level" : path.joined(separator: ".")
        switch error as? DecodingError {
        case .keyNotFound?: return "\(place) is missing"
        case .valueNotFound(let expected, _)?: return "\(place) is null where \(Self.name(of: expected)) is expected"
        case .typeMismatch(let expected, _)?: return "\(place) is not \(Self.name(of: expected))"
        case .dataCorrupted? where path.isEmpty: return "it is not valid JSON"
        case .dataCorrupted?: return "\(place) is not valid"
        default: return "\(error)"
        }
    }

    /// Decoders name the containers they expected by Swift types; a reader of JSON knows them otherwise.
    private static func name(of type: Any.Type) -> String {
        if type == [String: Any].self { return "a JSON object" }
        if type == [Any].self { return "a JSON array" }
        return "\(type)"
    }
}
