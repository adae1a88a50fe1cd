import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Swift Testing runs these arguments in parallel; each must see only its own stubs and journal.
@Suite("Registries are isolated worlds")
struct IsolationTests {
    @Test(arguments: 0..<40)
    func parallelTestsStubbingTheSamePathNeverSeeEachOther(_ index: Int) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "registry \(index)"), for: .get("/shared"))
        for serving in ServingMode.allCases {
            for _ in 0..<3 {
                #expect(try await serving.exchange(registry, .get, "/shared?from=\(index)").text == "registry \(index)")
            }
        }
        #expect(registry.journal.totalCount == 3 * ServingMode.allCases.count)
        #expect(registry.journal.entries.allSatisfy { $0.request.target == "/shared?from=\(index)" })
    }
}
