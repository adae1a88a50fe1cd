import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// WireMock's scenarios, under `scenarios`.
extension AdminAPI {
    func scenarios(_ call: AdminCall) -> StubResponse {
        withScenarios(call) { store in
            let summaries = store.scenarioSummaries
            // Listed only when some stub takes part in a scenario: the dashboard asks for scenarios
            // of a registry of thousands of stubs once a second.
            let mappings = summaries.isEmpty ? [] : (store as? any StubMappingStore)?.mappings ?? []
            return AdminReply.encoded(
                Scenarios(
                    scenarios: summaries.map { summary in
                        Scenarios.Entry(
                            id: summary.name, name: summary.name, state: summary.state,
                            possibleStates: summary.possibleStates,
                            mappings: mappings.filter { $0.route.scenario?.name == summary.name }.reversed()
                                .map(\.document)
                        )
                    }))
        }
    }

    func resetScenarios(_ call: AdminCall) -> StubResponse {
        withScenarios(call) { store in
            store.resetScenarios()
            return AdminReply.ok
        }
    }

    /// `PUT /__admin/scenarios/{name}/state` with `{"state": "…"}`; without a state, back to ``Scenario/started``.
    func setScenarioState(_ call: AdminCall) -> StubResponse {
        let name = call.parameters[0]
        return withScenarios(call) { store in
            guard store.scenarioSummaries.contains(where: { $0.name == name }) else {
                return AdminReply.error(.notFound, "No stub takes part in the scenario \"\(name)\".")
            }
            let state: String
            do {
                state =
                    call.body.isEmpty
                    ? Scenario.started
                    : try JSONDecoder().decode(ScenarioState.self, from: call.body).state ?? Scenario.started
            } catch {
                return AdminReply.error(.unprocessableContent, #"Expected {"state": "…"}: \#(error)"#)
            }
            store.setScenarioState(name, to: state)
            return AdminReply.ok
        }
    }

    private struct ScenarioState: Decodable {
        let state: String?
    }

    private struct Scenarios: Encodable {
        struct Entry: Encodable {
            let id: String
            let name: String
            let state: String
            let possibleStates: [String]
            let mappings: [JSONValue]
        }
        let scenarios: [Entry]
    }
}
