// swift-format-ignore-file
import Decoy
import DecoyRemote
import DecoyTesting
import Foundation
import Testing
import HTTPTypes

// The examples of docs/testing.md, "iOS UI tests", line for line, imports included, against a
// MockServer standing in for `decoy serve`: these imports are the UI test target's, and this file
// needs no other to compile them.

func decoyURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
    URL(string: environment["DECOY_URL"] ?? "http://127.0.0.1:8080")!
}

@Suite("Docs: remote examples")
struct RemoteExamples {
    @Test func theURLComesFromTheEnvironment() {
        #expect(decoyURL(environment: ["DECOY_URL": "http://127.0.0.1:9000"]) == URL(string: "http://127.0.0.1:9000")!)
        #expect(decoyURL(environment: [:]) == URL(string: "http://127.0.0.1:8080")!)
    }

    @Test func aUITestRegistersDrivesAndVerifies() async throws {
        try await withRemote { remote, server in
            func decoyURL() -> URL { remote.baseURL }

            let decoy = RemoteDecoy(baseURL: decoyURL())
            try await decoy.reset()
            try await decoy.register(StubResponse(status: .created, json: #"{"id": 7, "name": "Ada"}"#), for: .post("/users"))
            try await decoy.register(SequenceStub(first: [StubResponse(status: .serviceUnavailable)], then: StubResponse(json: "[]")), for: .get("/users"))
            try await decoy.register(StubResponse(text: "welcome back"), for: Route.get("/onboarding").scenario("onboarding", requiredState: "done"))
            try await decoy.setScenarioState("onboarding", to: "done")

            // What the app does when the test taps "Sign up".
            #expect(await outcome(server, .post, "/users").status == 201)
            #expect(await outcome(server, .get, "/onboarding").body == "welcome back")

            _ = await outcome(server, .get, "/users")
            try await decoy.expect(.post("/users"), count: .once)
            try await decoy.expectNoUnmatchedRequests()
            let journal = try await decoy.journal()
            journal.expect(.get("/users"), count: .atLeast(1))
        }
    }
}
