import Decoy
import DecoyRemote
import DecoyServer
import DecoyServerTesting
import DecoyTesting
import HTTPTypes
import XCTest

/// `RemoteDecoy` from XCTest, as an iOS UI test target uses it.
final class RemoteDecoyXCTests: XCTestCase {
    func testRegisterDriveAndExpect() async throws {
        try await withMockServer(registry: StubRegistry()) { server in
            let decoy = RemoteDecoy(baseURL: server.baseURL)

            try await decoy.reset()
            try await decoy.register(
                SequenceStub(
                    first: [StubResponse(status: .serviceUnavailable)], then: StubResponse(json: #"{"ok": true}"#)),
                for: .get("/status"))
            let first = await outcome(server, .get, "/status")
            let second = await outcome(server, .get, "/status")
            XCTAssertEqual(first.status, 503)
            XCTAssertEqual(second.body, #"{"ok": true}"#)

            let journal = try await decoy.journal()
            journal.expect(.get("/status"), count: .exactly(2))
            journal.expectNoUnmatchedRequests()
            XCTAssertEqual(journal.entries.map(\.status?.code), [503, 200])
        }
    }

    func testAClosureIsRefusedByName() async throws {
        let decoy = RemoteDecoy(baseURL: URL(string: "http://127.0.0.1:9")!)
        do {
            try await decoy.register(ClosureStub { _ in StubResponse() }, for: .get("/live"))
            XCTFail("a closure was sent")
        } catch let error as DecoyError {
            XCTAssertTrue(error.description.hasPrefix("ClosureStub cannot be sent to a server:"), error.description)
        }
    }
}
