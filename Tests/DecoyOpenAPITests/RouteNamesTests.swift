import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyOpenAPI
@testable import DecoyServer

/// A path template with a parameter inside a segment is routed by a regular expression, and still
/// named by the template wherever a user sees its route.
@Suite("Routes named by their path templates")
struct RouteNamesTests {
    private static let spec = try! OpenAPISpec(
        data: Data(
            """
            openapi: 3.0.1
            info: {title: T, version: '1'}
            paths:
              /2010-04-01/Accounts/{Sid}.json:
                get:
                  operationId: fetchAccount
                  parameters: [{name: Sid, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: d, content: {application/json: {example: {sid: AC1}}}}}
            """.utf8))
    private static let shown = "GET /2010-04-01/Accounts/{Sid}.json"

    @Test func theRouteTheMappingAndTheDashboardNameTheTemplate() throws {
        let registry = StubRegistry()
        try registry.registerExamples(of: Self.spec)
        let mapping = try #require(registry.mappings.first)
        #expect(mapping.route.description == Self.shown)
        #expect(StubSummary(mapping, answered: 0).route == Self.shown)
        // The admin API's mapping, which its serve events carry, and which the dashboard's journal names.
        guard case .object(let members) = mapping.document, case .object(let metadata)? = members["metadata"] else {
            Issue.record("the mapping has no metadata: \(mapping.json)")
            return
        }
        #expect(members["name"] == .string("registered in code: \(Self.shown)"))
        #expect(metadata["decoy"]?["route"] == .string(Self.shown))
        #expect(metadata["decoy"]?["pathTemplate"] == .string("/2010-04-01/Accounts/{Sid}.json"))
    }

    @Test func theJournalTheRequestLogAndThe404NameTheTemplateAndTheExpressionStillMatches() async throws {
        let registry = StubRegistry()
        try registry.registerExamples(of: Self.spec)
        let answer = try await registry.engine.answer(
            StubRequest(method: .get, target: "/2010-04-01/Accounts/AC1.json"))
        #expect(answer.status == .ok)
        let route = try #require(registry.journal.entries.last?.route)
        #expect(route.description == Self.shown)
        #expect(Self.logLine(route).contains("(\(Self.shown))"))
        // `{Sid}` inside the segment stands for any text, as the expression says; `.json` does not.
        let missed = try await registry.engine.answer(
            StubRequest(method: .get, target: "/2010-04-01/Accounts/AC1.xml"))
        let text = String(decoding: missed.body, as: UTF8.self)
        #expect(missed.status == .notFound)
        #expect(text.contains(Self.shown), "\(text)")
        #expect(!text.contains("[^/]"), "\(text)")
    }

    /// The line `decoy serve`'s request log writes for a request `route` answered.
    static func logLine(_ route: Route) -> String {
        var bytes: [UInt8] = []
        RequestLog.Record(
            method: route.method ?? .get, target: "/", status: 200, fault: nil, answeredBy: .route(route),
            nanoseconds: 1_000_000
        ).words(into: &bytes, colours: false)
        return String(decoding: bytes, as: UTF8.self)
    }
}
