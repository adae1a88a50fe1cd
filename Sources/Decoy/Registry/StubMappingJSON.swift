/// The JSON the admin API shows a registration by, in WireMock's mapping format.
enum StubMappingJSON {
    /// A stub-file document with `id` first and WireMock's `uuid` last, both the same: WireMock's
    /// clients read either.
    static func document(id: String, members: String) -> String {
        "{\"id\":\(id.jsonQuoted),\(members)\(members.isEmpty ? "" : ",")\"uuid\":\(id.jsonQuoted)}"
    }

    /// A stub registered in code: its route as a request pattern. The response is Swift code and
    /// has no JSON form, so it is left out, and the mapping cannot be sent back unchanged.
    static func forCode(_ route: Route, id: String) -> String {
        let pathKey = switch route.pathSyntax {
        case .template: "urlPathTemplate"
        case .regularExpression: "urlPathPattern"
        case .exact: "urlPath"
        }
        let method = route.method.map { "\($0)" } ?? "ANY"
        var members = [
            "\"name\":\("registered in code: \(route)".jsonQuoted)",
            "\"request\":{\"method\":\(method.jsonQuoted),\(pathKey.jsonQuoted):\(route.path.jsonQuoted)}",
        ]
        if route.priority != Route.defaultPriority { members.append("\"priority\":\(route.priority)") }
        members.append("\"metadata\":{\"decoy\":{\"origin\":\"code\",\"route\":\(route.description.jsonQuoted)}}")
        return document(id: id, members: members.joined(separator: ","))
    }
}
