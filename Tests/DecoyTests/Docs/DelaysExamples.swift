// swift-format-ignore-file
// The "Delays without waiting" example of docs/getting-started.md: a whole file, as shown.
import Clocks
import Decoy
import DecoyClient
import DecoyTesting
import Foundation
import Testing

@Test func showsTheSlowAnswer() async throws {
    let clock = TestClock()
    let registry = StubRegistry(clock: clock)
    try registry.register(StubResponse(json: #"{"id": 1, "name": "Slow"}"#, delay: .fixed(.seconds(3))), for: .get("/users/1"))
    let client = APIClient(baseURL: URL(string: "https://api.example.com")!,
                           configuration: .init(timeout: nil), transport: StubTransport(registry))

    let request = Task { try await client.send(.user(id: 1)) }
    await waitUntilSleeping(clock)
    await clock.advance(by: .seconds(3))

    #expect(try await request.value.name == "Slow")
}
