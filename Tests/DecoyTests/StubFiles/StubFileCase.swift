import Decoy
import DecoyStubFiles
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// One behaviour of a stub file, as data: a fixture folder and the exchanges to make against
/// it in order, each with the answer expected. Kept apart from how requests are sent, so the
/// same cases can run in any serving.
struct StubFileCase: Sendable, CustomTestStringConvertible {
    /// One request and the answer it should get.
    struct Step: Sendable {
        let method: HTTPRequest.Method
        let target: String
        var headerFields: HTTPFields = [:]
        var body: String?
        let status: Int
        /// The whole body expected; `nil` to check the status alone.
        var text: String?
    }

    let name: String
    /// The fixture folder, under `Fixtures/StubFiles`, or `nil` for the example `stubs/` folder.
    let fixture: String?
    let steps: [Step]

    var testDescription: String { name }

    init(_ name: String, fixture: String?, _ steps: [Step]) {
        self.name = name
        self.fixture = fixture
        self.steps = steps
    }

    /// A case of one request.
    init(
        _ name: String, fixture: String?, _ method: HTTPRequest.Method, _ target: String,
        headerFields: HTTPFields = [:], body: String? = nil, status: Int = 200, text: String?
    ) {
        self.init(
            name, fixture: fixture,
            [Step(method: method, target: target, headerFields: headerFields, body: body, status: status, text: text)])
    }

    /// Loads the fixture into a fresh registry and makes each exchange through `serving`.
    func run(in serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.load(folder: fixture.map(StubFileFixtures.folder) ?? StubFileFixtures.examples, strict: true)
        for (index, step) in steps.enumerated() {
            let exchange = try await serving.exchange(
                registry, step.method, step.target, headerFields: step.headerFields,
                body: step.body.map { Data($0.utf8) })
            #expect(
                exchange.status == step.status, "step \(index + 1), \(step.method) \(step.target): \(exchange.text)")
            if let text = step.text {
                #expect(exchange.text == text, "step \(index + 1), \(step.method) \(step.target)")
            }
        }
    }
}
