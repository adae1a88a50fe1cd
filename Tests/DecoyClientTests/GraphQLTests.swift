import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("GraphQL: documents named after the operation, variables, data and errors")
struct GraphQLTests {
    struct HeroName: GraphQLOperation {
        struct Output: Decodable, Equatable, Sendable { let hero: Hero }
        struct Hero: Decodable, Equatable, Sendable { let name: String }
        let variables: [String: String]
    }

    struct ServerTime: GraphQLOperation {
        struct Output: Decodable, Sendable { let now: Date }
    }

    struct Renamed: GraphQLOperation {
        typealias Output = HeroName.Output
        static var documentName: String { "HeroName" }
    }

    static let documents = GraphQLDocuments(bundle: .module, subdirectory: "Documents")
    static let heroQuery = try! String(
        contentsOf: documents.folder.appending(path: "HeroName.graphql"), encoding: .utf8)

    static func client(answering answer: StubResponse, _ configuration: APIClient.Configuration = .init()) throws -> (
        APIClient, Recorder
    ) {
        let recorder = try Recorder(answer: answer)
        return (recorder.client(configuration), recorder)
    }

    @Test func postsTheDocumentAndVariablesAndDecodesData() async throws {
        let (client, recorder) = try Self.client(
            answering: StubResponse(json: #"{"data": {"hero": {"name": "R2-D2"}}}"#))
        let output = try await client.send(
            .graphQL(HeroName(variables: ["episode": "JEDI"]), documents: Self.documents))
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
            try await client.send(.graphQL(HeroName(variables: [:]), documents: Self.documents, path: "/api"))
        }
        guard case .graphQL(let failure) = error else {
            Issue.record("expected GraphQL errors, got \(String(describing: error))"); return
        }
        #expect(failure.errors.map(\.message) == ["friends unavailable"])
        #expect(failure.errors.first?.locations == [GraphQLError.Location(line: 3, column: 5)])
        #expect(failure.errors.first?.path == ["hero", "friends", "1"])
        #expect(failure.partialData(as: HeroName.Output.self)?.hero.name == "Luke")
    }

    @Test func errorsWithoutDataStillFail() async throws {
        let (client, _) = try Self.client(
            answering: StubResponse(json: #"{"data": null, "errors": [{"message": "syntax"}]}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(.graphQL(HeroName(variables: [:]), documents: Self.documents))
        }
        guard case .graphQL(let failure) = error else { Issue.record("expected GraphQL errors"); return }
        #expect(failure.partialData == nil)
        #expect(failure.errors.first?.path == [])
    }

    @Test func dataDecodesWithTheClientsDecoderAndNoVariablesAreAnEmptyObject() async throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let (client, recorder) = try Self.client(
            answering: StubResponse(json: #"{"data": {"now": 86400}}"#), .init(decoder: decoder))
        let output = try await client.send(
            .graphQL(ServerTime(), documents: GraphQLDocuments(folder: Self.documents.folder)))
        #expect(output.now == Date(timeIntervalSince1970: 86_400))
        let sent = try JSONSerialization.jsonObject(with: try #require(recorder.request).body) as? [String: Any]
        #expect((sent?["variables"] as? [String: Any])?.isEmpty == true)
    }

    @Test func missingDataIsADecodingFailureAtData() async throws {
        let (client, _) = try Self.client(answering: StubResponse(json: #"{"extensions": {}}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(.graphQL(HeroName(variables: [:]), documents: Self.documents))
        }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.codingPath == ["data"])
    }

    @Test func documentNameCanBeGivenAndAMissingDocumentIsAnInvalidRequest() throws {
        #expect(throws: Never.self) { try Resource.graphQL(Renamed(), documents: Self.documents) }
        do {
            _ = try Resource.graphQL(
                HeroName(variables: [:]), documents: GraphQLDocuments(folder: URL(filePath: "/nonexistent")))
            Issue.record("expected a missing document")
        } catch {
            guard case .invalidRequest(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("/nonexistent/HeroName.graphql"))
        }
    }
}
