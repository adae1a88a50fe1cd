import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTestSupport
import DecoyTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Faults")
struct FaultTests {
    @Test(
        arguments: ServingMode.allCases,
        [
            (Fault.connectionReset, TransportFailure.connectionLost),
            (.emptyResponse, .badResponse),
            (.malformedResponse, .badResponse),
            (.randomDataThenClose, .badResponse),
        ])
    func faultSurfacesAsTheSameTransportCategory(_ serving: ServingMode, _ fault: (Fault, TransportFailure))
        async throws
    {
        try await expect(fault.0, in: serving, toFailAs: fault.1)
    }

    /// No server can make a client raise an arbitrary error: this fault is for in-process servings.
    @Test(arguments: [ServingMode.inProcess, .urlProtocol])
    func transportErrorIsThrownInProcess(_ serving: ServingMode) async throws {
        try await expect(.transportError(.cannotConnectToHost), in: serving, toFailAs: .cannotConnect)
    }

    private func expect(_ fault: Fault, in serving: ServingMode, toFailAs category: TransportFailure)
        async throws
    {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(fault), for: .get("/broken"))
        let error = await #expect(throws: APIError.self) {
            try await serving.client(registry).send(Resource<Void>.get("/broken"))
        }
        guard case .transport(let failure, _) = error else {
            Issue.record("expected a transport failure, got \(String(describing: error))"); return
        }
        #expect(failure == category)
        #expect(registry.journal.entries.last?.fault == fault)
    }
}
