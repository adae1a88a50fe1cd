import Foundation

/// The JSON the admin API shows a registration by, in WireMock's mapping format, with its id as
/// both `id` and WireMock's `uuid`: WireMock's clients read either.
package enum StubMappingJSON {
    /// A stub file's document, `id` first and `uuid` last. Text, not an encoded value: its members
    /// are kept as the file wrote them, in their order and with their numbers' spelling, which
    /// an encoder would not keep.
    package static func document(id: String, members: String) -> String {
        "{\"id\":\(id.jsonQuoted),\(members)\(members.isEmpty ? "" : ",")\"uuid\":\(id.jsonQuoted)}"
    }

    /// A stub registered in code: the whole stub when a stub file can express it, so that the
    /// mapping can be sent back unchanged. Otherwise (a closure, say) the response is Swift code
    /// with no JSON form, and only the route's method and path are shown. Encoded, keys sorted.
    static func forCode(_ route: Route, stub: any Stub, id: String) -> String {
        var members: [String: JSONValue]
        if let encoded = try? StubEncoder.mapping(stub, for: route) {
            members = encoded
        } else {
            let pathKey =
                switch route.pathSyntax {
                case .template: "urlPathTemplate"
                case .regularExpression: "urlPathPattern"
                case .exact: "urlPath"
                }
            members = [
                "request": .object([
                    "method": .string(route.method.map { "\($0)" } ?? "ANY"), pathKey: .string(route.path),
                ])
            ]
            if route.priority != Route.defaultPriority { members["priority"] = .number(Double(route.priority)) }
            if let actions = try? StubEncoder.postServeActions(route.webhooks), !route.webhooks.isEmpty {
                members["postServeActions"] = actions
            }
        }
        members["name"] = .string("registered in code: \(route)")
        var decoy: [String: JSONValue] = ["origin": .string("code"), "route": .string(route.description)]
        // The request matches by the expression, which is all WireMock reads; the template goes
        // beside it, so that a serve event read back (`RemoteDecoy`) names the route as it was written.
        if let template = route.pathTemplate { decoy["pathTemplate"] = .string(template) }
        members["metadata"] = .object(["decoy": .object(decoy)])
        members["id"] = .string(id)
        members["uuid"] = .string(id)
        return String(decoding: (try? encoder.encode(JSONValue.object(members))) ?? Data("{}".utf8), as: UTF8.self)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
