import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("GraphQL: documents named after the request type, variables, data and errors")
struct GraphQLTests {
    static let documents = Bundle.module.resourceURL!.appending(path: "Documents")
    static let heroQuery = try! String(contentsOf: documents.appending(path: "HeroName.graphql"), encoding: .utf8)

    struct HeroName: Request {
        struct Output: Decodable, Equatable, Sendable { let hero: Hero }
        struct Hero: Decodable, Equatable, Sendable { let name: String }
        let variables: [String: String]
        var path = "/graphql"
        var resource: Resource<Output> { .graphQL(Self.self, variables: variables, in: documents, path: path) }
    }

    struct ServerTime: Request {
        struct Output: Decodable, Sendable { let now: Date }
        var resource: Resource<Output> { .graphQL(Self.self, in: documents) }
    }

    /// Sends `HeroName.graphql` under another name.
    struct Renamed: Request {
        var folder = documents
        var resource: Resource<HeroName.Output> { .graphQL(HeroName.self, in: folder) }
    }

    static func client(answering answer: StubResponse, _ configuration: APIClient.Configuration = .init()) throws -> (
        APIClient, Recorder
    ) {
        let recorder = try Recorder(answer: answer)
        return (recorder.client(configuration), recorder)
    }

    @Test func postsTheDocumentAndVariablesAndDecodesData() async throws {
        let (client, recorder) = try Self.client(
            answering: StubResponse(json: #"{"data": {"hero": {"name": "R2-D2"}}}"#))
        let output = try await client.send(HeroName(variables: ["episode": "JEDI"]))
        #expect(output == HeroName.Output(hero: .init(name: "R2-D2")))
        let request = try #require(recorder.request)
        #expect(request.method == .post)
        #expect(request.target == "/graphql")
        #expect(request.headerFields[.contentType] == "application/json")
        let sent = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        #expect(sent?["query"] as? String == Self.heroQuery)
        #expect(sent?["variables"] as? [String: String] == ["episode": "JEDI"])
    }

    @Test func errorsFailTheRequestWithPartialData() async throws {
        let reply = #"""
            {"data": {"hero": {"name": "Luke"}}, "errors": [{"message": "friends unavailable", "locations": [{"line": \#
            3, "column": 5}], "path": ["hero", "friends", 1]}]}
            """#
        let (client, _) = try Self.client(answering: StubResponse(json: reply))
        let error = await #expect(throws: APIError.self) {
            try await client.send(HeroName(variables: [:], path: "/api"))
        }
        guard case .graphQL(let errors, let partialData, _) = error else {
            Issue.record("expected GraphQL errors, got \(String(describing: error))"); return
        }
        #expect(errors.map(\.message) == ["friends unavailable"])
        #expect(errors.first?.locations.map { [$0.line, $0.column] } == [[3, 5]])
        #expect(errors.first?.path == ["hero", "friends", "1"])
        #expect((partialData as? HeroName.Output)?.hero.name == "Luke")
    }

    @Test func errorsWithoutDataStillFail() async throws {
        let (client, _) = try Self.client(
            answering: StubResponse(json: #"{"data": null, "errors": [{"message": "syntax"}]}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(HeroName(variables: [:]))
        }
        guard case .graphQL(let errors, let partialData, _) = error else {
            Issue.record("expected GraphQL errors"); return
        }
        #expect(partialData == nil)
        #expect(errors.first?.path == [])
    }

    @Test func dataDecodesWithTheClientsDecoderAndNoVariablesAreAnEmptyObject() async throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let (client, recorder) = try Self.client(
            answering: StubResponse(json: #"{"data": {"now": 86400}}"#), .init(decoder: decoder))
        let output = try await client.send(ServerTime())
        #expect(output.now == Date(timeIntervalSince1970: 86_400))
        let sent = try JSONSerialization.jsonObject(with: try #require(recorder.request).body) as? [String: Any]
        #expect((sent?["variables"] as? [String: Any])?.isEmpty == true)
    }

    @Test func missingDataIsADecodingFailureAtData() async throws {
        let (client, _) = try Self.client(answering: StubResponse(json: #"{"extensions": {}}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(HeroName(variables: [:]))
        }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.codingPath == ["data"])
    }

    @Test func anotherTypeCanNameTheDocumentAndAMissingDocumentIsAnInvalidRequest() async throws {
        let (client, recorder) = try Self.client(answering: StubResponse(json: #"{"data": {"hero": {"name": "Rey"}}}"#))
        #expect(try await client.send(Renamed()).hero.name == "Rey")
        let sent = try JSONSerialization.jsonObject(with: try #require(recorder.request).body) as? [String: Any]
        #expect(sent?["query"] as? String == Self.heroQuery)
        let error = await #expect(throws: APIError.self) {
            try await client.send(Renamed(folder: URL(filePath: "/nonexistent")))
        }
        guard case .invalidRequest(let reason) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("/nonexistent/HeroName.graphql"))
    }
}
