import Decoy
import Foundation
import HTTPTypes

/// Reads one stub of a stub file: WireMock's mapping fields, plus Decoy's lists of responses,
/// conditional responses and failure rates.
struct StubDecoder {
    /// The fields every stub has, whatever its kind.
    private static let commonFields = [
        "id", "uuid", "name", "priority", "request", "response", "responses", "seed",
        "scenarioName", "requiredScenarioState", "newScenarioState", "postServeActions",
    ]
    /// WireMock fields that change no answer: `metadata` is kept in the mapping for the admin API to
    /// search; WireMock writes the others into saved mappings.
    private static let ignoredFields = ["persistent", "metadata", "insertionIndex"]

    var responses: ResponseDecoder
    /// The id the stub is registered under whatever it says, as when the admin API replaces one by its id.
    var assignedID: String?
    /// Reads `postServeActions`.
    var webhooks = WebhookDecoder()
    /// The kinds of stub read, in order.
    var kinds = StubFileKind.all

    /// The fields of a stub.
    var fields: [String] {
        Self.commonFields + kinds.flatMap(\.fields) + Self.ignoredFields
    }

    /// The stub `node` describes, compiled; `nil` after logging every problem in it.
    func decode(_ node: FileNode) -> StubDefinition? {
        guard let object = node.object(known: fields) else { return nil }
        let id = id(object)
        let name = object["name"].map { $0.text() } ?? .some(nil)
        let priority = object["priority"].map { $0.integer() } ?? Route.defaultPriority
        let scenario = scenario(object)
        let decoded =
            object["request"].map(RequestDecoder.decode)
            ?? DecodedRoute(route: Route(method: nil, path: "/**"), pathNode: nil, matcherNodes: [])
        let registeredID = assignedID ?? (id ?? nil) ?? UUID().uuidString.lowercased()
        // Every answer says which stub gave it, as WireMock's do.
        var decoder = self
        decoder.responses.matchedStubFields = Self.matchedStubFields(id: registeredID, name: name ?? nil)
        decoder.responses.answersHEAD = (decoded ?? nil)?.route.method == .head
        let stub = decoder.stub(object)
        let webhooks = object["postServeActions"].map { self.webhooks.decode($0, responses: responses) } ?? []
        guard let id, let name, let priority, let scenario, var decoded, let stub, let webhooks else { return nil }
        decoded.route.priority = priority
        decoded.route.scenario = scenario
        decoded.route.webhooks = webhooks
        guard let compiled = decoded.compiled() else { return nil }
        let loaded = LoadedStub(
            file: node.log.file, line: node.mark?.line ?? 1, id: id, name: name, route: decoded.route, handle: nil)
        return StubDefinition(
            id: registeredID, pattern: compiled, stub: stub, loaded: loaded,
            members: JSONText.members(of: node.node, excluding: ["id", "uuid"]))
    }

    /// `Matched-Stub-Id` and, when the stub has a name, `Matched-Stub-Name`.
    private static func matchedStubFields(id: String, name: String?) -> HTTPFields {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .matchedStubID, value: id))
        if let name { fields.append(HTTPField(name: .matchedStubName, value: name)) }
        return fields
    }

    /// `id`, or WireMock's `uuid`; WireMock's clients send both, with the same value, and where
    /// they differ, WireMock takes the one written last. `.some(nil)` when the stub has neither.
    private func id(_ object: FileObject) -> String?? {
        let given = object.members.filter { $0.key == "id" || $0.key == "uuid" }
        let texts = given.compactMap { $0.value.text() }
        guard texts.count == given.count else { return .none }
        guard let last = texts.last else { return .some(nil) }
        if Set(texts).count > 1, let (key, node) = given.last {
            node.warning("id and uuid differ; the stub's id is its \(key), \"\(last)\", written last, as in WireMock")
        }
        return last
    }

    /// `scenarioName` with its states; `.some(nil)` when the stub is in no scenario.
    private func scenario(_ object: FileObject) -> Scenario?? {
        let required = object["requiredScenarioState"].map { $0.text() } ?? .some(nil)
        let new = object["newScenarioState"].map { $0.text() } ?? .some(nil)
        guard let nameNode = object["scenarioName"] else {
            if let (key, node) = object.oneOf(["requiredScenarioState", "newScenarioState"]) {
                node.error("\(key) needs scenarioName")
                return .none
            }
            return .some(nil)
        }
        guard let name = nameNode.text(), let required, let new else { return .none }
        return Scenario(name: name, requiredState: required, newState: new)
    }

    /// The stub the fields describe, read by the first of ``kinds`` they choose.
    private func stub(_ object: FileObject) -> (any Stub)? {
        let answer = object.oneOf(["response", "responses"])
        if answer == nil { object.node.error("a stub needs \"response\" or \"responses\"") }
        let fields = StubFields(object: object, answer: answer, responses: responses)
        func read(from index: Int) -> (any Stub)? {
            guard index < kinds.count else { return nil }
            return kinds[index].decode(fields) { read(from: index + 1) }
        }
        return read(from: 0)
    }
}
