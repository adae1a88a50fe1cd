package import Decoy
import Foundation

extension Route {
    /// The route of `mapping`, a stub-file document as the admin API lists it: its `request`,
    /// `priority` and scenario, read by the stub-file decoder, and the path template a regular
    /// expression was made from, which Decoy keeps in its metadata; `nil` when it has none Decoy reads.
    package init?(mapping: JSONValue) {
        guard case .object(let members) = mapping else { return nil }
        var routeOnly = members.filter {
            ["request", "priority", "scenarioName", "requiredScenarioState", "newScenarioState"].contains($0.key)
        }
        // The decoder reads a whole stub; an empty response stands in for whatever answered.
        routeOnly["response"] = .object([:])
        guard let data = try? JSONEncoder().encode(JSONValue.object(routeOnly)),
            case .success(let definition) = StubDocument.stub(data, source: "mapping", folder: nil)
        else { return nil }
        self = definition.pattern.route
        if case .object(let metadata)? = members["metadata"], case .object(let decoy)? = metadata["decoy"],
            case .string(let template)? = decoy["pathTemplate"], pathSyntax == .regularExpression
        {
            pathTemplate = template
        }
    }
}
