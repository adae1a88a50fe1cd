import Foundation
package import HTTPTypes

/// The rules a ``LogRedaction`` hides secrets by, shared by the client's log and by recordings
/// of stub files, so that both hide the same things.
extension LogRedaction {
    /// Whether the value of the query parameter or JSON key `name` is hidden, unless `unredacted`
    /// (lowercased) names it.
    package func hides(parameter name: String, unredacted: Set<String> = []) -> Bool {
        let name = name.lowercased()
        return parameters.contains(name) && !unredacted.contains(name)
    }

    /// Whether the value of the header field `name` is hidden, unless `unredacted` (lowercased) names it.
    package func hides(field name: HTTPField.Name, unredacted: Set<String> = []) -> Bool {
        headerFields.contains(name) && !unredacted.contains(name.canonicalName)
    }

    /// The name of one `name=value` pair of a query, as written.
    package static func rawParameterName(_ pair: Substring) -> String {
        pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// `target` with the values of hidden query parameters masked.
    package func redacting(target: String, unredacted: Set<String> = []) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: mark)...].split(separator: "&").map { pair in
            let name = Self.rawParameterName(pair)
            return hides(parameter: name.removingPercentEncoding ?? name, unredacted: unredacted)
                ? "\(name)=\(Self.mask)" : String(pair)
        }
        return target[..<mark] + "?" + query.joined(separator: "&")
    }

    /// `json`, as `JSONSerialization` reads it, with the values of hidden keys masked at any depth.
    package func redacting(json: Any, unredacted: Set<String> = []) -> Any {
        switch json {
        case let object as [String: Any]:
            Dictionary(
                uniqueKeysWithValues: object.map { key, value in
                    (
                        key,
                        hides(parameter: key, unredacted: unredacted)
                            ? Self.mask : redacting(json: value, unredacted: unredacted)
                    )
                })
        case let array as [Any]:
            array.map { redacting(json: $0, unredacted: unredacted) }
        default:
            json
        }
    }
}
