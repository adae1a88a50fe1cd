import Decoy
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

@Suite("expectBody and expectBodies")
struct BodyExpectationTests {
    struct NewUser: Decodable, Equatable {
        let name: String
        let age: Int
    }

    @Test func returnsTheDecodedBody() throws {
        let registry = try StubRegistry.having(received: [.json(.post, "/users", #"{"name": "Ada", "age": 36}"#)])
        #expect(registry.expectBody(of: .post("/users"), as: NewUser.self) == NewUser(name: "Ada", age: 36))
    }

    @Test func returnsEveryDecodedBodyInOrder() throws {
        let registry = try StubRegistry.having(received: [
            .json(.post, "/users", #"{"name": "Ada", "age": 36}"#),
            StubRequest(method: .get, target: "/users/1"),
            .json(.post, "/users", #"{"name": "Grace", "age": 85}"#),
        ])
        let bodies = registry.expectBodies(of: .post("/users"), as: NewUser.self, count: .exactly(2))
        #expect(bodies == [NewUser(name: "Ada", age: 36), NewUser(name: "Grace", age: 85)])
    }

    @Test func usesTheDecoderGiven() throws {
        let registry = try StubRegistry.having(received: [.json(.post, "/users", #"{"user_name": "Ada"}"#)])
        struct Named: Decodable, Equatable { let userName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(registry.expectBody(of: .post("/users"), as: Named.self, decoder: decoder) == Named(userName: "Ada"))
    }

    @Test func failsWhenNoRequestMatched() throws {
        let registry = try StubRegistry.having(received: [.json(.post, "/user", #"{"name": "Ada", "age": 36}"#)])
        let message = """
            Expected exactly 1 request matching POST /users, but received 0.
            Near misses (closest first):
              1. POST /user → 404 (unmatched): path segment 1 is "user", the route expects "users"
            """
        var body: NewUser?
        expectFailure(message) { body = registry.expectBody(of: .post("/users"), as: NewUser.self) }
        #expect(body == nil)
    }

    @Test(arguments: [
        (#"{"name": "Ada"}"#, "age is missing"),
        (#"{"name": "Ada", "age": "36"}"#, "age is not Int"),
        (#"{"name": null, "age": 36}"#, "name is null where String is expected"),
        (#"{"name": "Ada", "#, "it is not valid JSON"),
        (#"[{"name": "Ada", "age": 36}]"#, "the top level is not a JSON object"),
        (#"{"name": "Ada", "age": {"years": 36}}"#, "age is not Int"),
    ])
    func failsWhenTheBodyDoesNotDecode(_ json: String, _ reason: String) throws {
        let registry = try StubRegistry.having(received: [.json(.post, "/users", json)])
        let message = """
            The body of request 1, POST /users → 201, does not decode as NewUser: \(reason).
            Body: \(json)
            """
        var body: NewUser?
        expectFailure(message) { body = registry.expectBody(of: .post("/users"), as: NewUser.self) }
        #expect(body == nil)
    }

    @Test func failsForEachBodyThatDoesNotDecodeAndKeepsTheRest() throws {
        let long = String(repeating: "x", count: 250)
        let registry = try StubRegistry.having(received: [
            .json(.post, "/users", #"{"name": "Ada", "age": 36}"#),
            StubRequest(method: .post, target: "/users"),
            .json(.post, "/users", long),
        ])
        var bodies: [NewUser] = []
        let recorded = RecordedIssues()
        withKnownIssue {
            bodies = registry.expectBodies(of: .post("/users"), as: NewUser.self)
        } matching: { issue in
            recorded.append(issue)
            return true
        }
        #expect(
            recorded.all.map(\.message) == [
                """
                The body of request 2, POST /users → 201, does not decode as NewUser: it is not valid \
                JSON.\nBody: (empty)
                """,
                """
                The body of request 3, POST /users → 201, does not decode as NewUser: it is not valid \
                JSON.\nBody: \(long.prefix(200))…
                """,
            ])
        #expect(bodies == [NewUser(name: "Ada", age: 36)])
    }
}
