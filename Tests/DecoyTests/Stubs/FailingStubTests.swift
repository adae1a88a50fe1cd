import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("Failure rates")
struct FailingStubTests {
    /// The statuses a 30% failure rate with seed 42 gives, worked out without any serving.
    static func expectedStatuses(count: Int) -> [Int] {
        let reference = FailingStub(
            failing: 0.3, with: StubResponse(status: .serviceUnavailable), otherwise: StubResponse(text: "ok"), seed: 42
        )
        return (0..<count).map { _ in
            guard case .response(let response) = reference.resolve(for: StubRequest(method: .get, target: "/")) else {
                return 0
            }
            return response.status.code
        }
    }

    @Test func theSeedFailsAboutTheRateAndTheSameCallsEachTime() {
        let statuses = Self.expectedStatuses(count: 1_000)
        #expect(statuses == Self.expectedStatuses(count: 1_000))
        #expect((250...350).contains(statuses.count { $0 == 503 }))
    }

    @Test(arguments: ServingMode.allCases)
    func everyServingFailsTheSameCalls(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            FailingStub(
                failing: 0.3, with: StubResponse(status: .serviceUnavailable), otherwise: StubResponse(text: "ok"),
                seed: 42), for: .get("/flaky"))
        var statuses: [Int] = []
        for _ in 0..<20 { statuses.append(try await serving.exchange(registry, .get, "/flaky").status) }
        #expect(statuses == Self.expectedStatuses(count: 20))
        #expect(statuses.contains(503) && statuses.contains(200))
    }

    @Test(arguments: ServingMode.allCases)
    func aRetryPolicyRidesOutTheFailures(_ serving: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            FailingStub(
                failing: 0.5, with: StubResponse.fault(.connectionReset), otherwise: StubResponse(text: "ok"), seed: 3),
            for: .get("/flaky"))
        let retry = RetryPolicy(maxAttempts: 8, wait: .milliseconds(1), multiplier: 1, jitter: 0)
        let client = try serving.client(registry, configuration: .init(retry: retry))
        for _ in 0..<10 {
            #expect(try await client.send(Resource<String>.get("/flaky")) == "ok")
        }
        let faults = registry.journal.entries.count { $0.fault == .connectionReset }
        #expect(faults > 0)
        #expect(registry.journal.entries.count == 10 + faults)
    }
}
