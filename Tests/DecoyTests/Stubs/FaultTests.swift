import Decoy
import DecoyClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("Faults, in-process")
struct FaultTests {
    @Test(arguments: InProcessServing.allCases, [
        (Fault.connectionReset, TransportFailure.Category.connectionLost),
        (.emptyResponse, .badResponse),
        (.malformedResponse, .badResponse),
        (.randomDataThenClose, .badResponse),
        (.transportError(.cannotConnectToHost), .cannotConnect),
    ])
    func faultSurfacesAsTheSameTransportCategory(_ serving: InProcessServing, _ fault: (Fault, TransportFailure.Category)) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(fault.0), for: .get("/broken"))
        let error = await #expect(throws: APIError.self) {
            try await serving.client(registry).send(Resource<Void>.get("/broken"))
        }
        guard case .transport(let failure) = error else { Issue.record("expected a transport failure, got \(String(describing: error))"); return }
        #expect(failure.category == fault.1)
        #expect(registry.journal.entries.last?.fault == fault.0)
    }
}
