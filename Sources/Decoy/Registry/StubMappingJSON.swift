/// The JSON the admin API shows a registration by, in WireMock's mapping format.
package enum StubMappingJSON {
    /// A stub-file document with `id` first and WireMock's `uuid` last, both the same: WireMock's
    /// clients read either.
    package static func document(id: String, members: String) -> String {
        "{\"id\":\(id.jsonQuoted),\(members)\(members.isEmpty ? "" : ",")\"uuid\":\(id.jsonQuoted)}"
    }

    /// A stub registered in code: the whole stub when a stub file can express it, so that the
    /// mapping can be sent back unchanged. Otherwise (a closure, say) the response is Swift code
    /// with no JSON form, and only the route's method and path are shown.
    static func forCode(_ route: Route, stub: any Stub, id: String) -> String {
        var members: [String: JSONValue]
        if let encoded = try? StubEncoder.mapping(stub, for: route) {
            members = encoded
        } else {
            let pathKey = switch route.pathSyntax {
            case .template: "urlPathTemplate"
            case .regularExpression: "urlPathPattern"
            case .exact: "urlPath"
            }
            members = ["request": .object(["method": .string(route.method.map { "\($0)" } ?? "ANY"), pathKey: .string(route.path)])]
            if route.priority != Route.defaultPriority { members["priority"] = .number(Double(route.priority)) }
        }
        members["name"] = .string("registered in code: \(route)")
        members["metadata"] = .object(["decoy": .object(["origin": .string("code"), "route": .string(route.description)])])
        return document(id: id, members: members.sorted { $0.key < $1.key }.map { $0.key.jsonQuoted + ":" + $0.value.json }.joined(separator: ","))
    }
}
