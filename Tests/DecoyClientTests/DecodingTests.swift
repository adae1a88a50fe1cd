import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("Decoding: envelopes, lossy arrays, fallbacks, empty bodies, per-resource decoders")
struct DecodingTests {
    struct Person: Codable, Equatable, Sendable { let name: String; let age: Int }
    struct Notice: Codable, Equatable, Sendable { let notice: String }

    static func client(answering answer: StubResponse, _ configuration: APIClient.Configuration = .init()) throws
        -> APIClient
    {
        try Recorder(answer: answer).client(configuration)
    }

    @Test func unwrapsTheOnlyKeyOfAnEnvelopeWhateverItsName() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"person": {"name": "Ada", "age": 36}}"#))
        #expect(try await client.send(Resource<Person>.get("/me").unwrapped()) == Person(name: "Ada", age: 36))
    }

    @Test func envelopeWithMoreKeysUsesTheNamedKey() async throws {
        let client = try Self.client(
            answering: StubResponse(json: #"{"person": {"name": "Ada", "age": 36}, "meta": {}}"#))
        #expect(
            try await client.send(Resource<Person>.get("/me").unwrapped(otherwise: "person"))
                == Person(name: "Ada", age: 36))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<Person>.get("/me").unwrapped())
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))"); return
        }
        #expect("\(failure.underlying)".contains("expected an envelope with a single key, found 2: meta, person"))
    }

    @Test func unwrappedFailureKeepsTheFullCodingPath() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"people": [{"name": "Ada", "age": "old"}]}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<[Person]>.get("/people").unwrapped())
        }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.codingPath == ["people", "0", "age"])
    }

    static let mixedPeople =
        #"{"data": [{"name": "Ada", "age": 36}, {"name": "Bob"}, {"name": "Lin", "age": 3}, null]}"#

    @Test func strictArraysFailOnOneBadElement() async throws {
        let client = try Self.client(answering: StubResponse(json: Self.mixedPeople))
        await #expect(throws: APIError.self) {
            try await client.send(Resource<[Person]>.get("/people").rootKeys("data"))
        }
    }

    @Test func lossyArraysKeepTheElementsThatDecode() async throws {
        let expected = [Person(name: "Ada", age: 36), Person(name: "Lin", age: 3)]
        let perResource = try Self.client(answering: StubResponse(json: Self.mixedPeople))
        #expect(
            try await perResource.send(Resource<[Person]>.get("/people").rootKeys("data").lossyArrays())
                == expected)
        let perClient = try Self.client(answering: StubResponse(json: Self.mixedPeople), .init(lossyArrays: true))
        #expect(try await perClient.send(Resource<[Person]>.get("/people").rootKeys("data")) == expected)
        await #expect(throws: APIError.self, "the resource's strict beats the client's lossy") {
            try await perClient.send(Resource<[Person]>.get("/people").rootKeys("data").lossyArrays(false))
        }
    }

    @Test func lossyArrayInsideAModel() async throws {
        struct Team: Decodable, Sendable { let name: String; @LossyArray var members: [Person] }
        let client = try Self.client(
            answering: StubResponse(
                json: #"{"name": "core", "members": [{"name": "Ada", "age": 36}, 7, {"name": "Lin", "age": 3}]}"#))
        let team = try await client.send(Resource<Team>.get("/team"))
        #expect(team.members == [Person(name: "Ada", age: 36), Person(name: "Lin", age: 3)])
        let empty = try JSONDecoder().decode(LossyArray<Int>.self, from: Data("[]".utf8))
        #expect(empty.wrappedValue.isEmpty)
        #expect(try JSONEncoder().encode(LossyArray(wrappedValue: [1, 2])) == Data("[1,2]".utf8))
    }

    @Test func fallbackTypeIsReportedWithItsValue() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"notice": "down for maintenance"}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<Person>.get("/me").fallback(Notice.self))
        }
        guard case .fallback(let value, let failure) = error else {
            Issue.record("expected a fallback, got \(String(describing: error))"); return
        }
        #expect(value as? Notice == Notice(notice: "down for maintenance"))
        #expect(failure.codingPath == ["name"])
    }

    @Test func fallbackIsNotTriedWhenTheMainTypeDecodes() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"name": "Ada", "age": 36}"#))
        #expect(
            try await client.send(Resource<Person>.get("/me").fallback(Notice.self)) == Person(name: "Ada", age: 36))
    }

    @Test func whenNeitherDecodesTheMainTypesFailureIsThrown() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"unexpected": true}"#))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<Person>.get("/me").fallback(Notice.self))
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))"); return
        }
        #expect(failure.codingPath == ["name"])
    }

    @Test func fallbackUsesTheResourcesEnvelopeAndOwnDecodingStep() async throws {
        let client = try Self.client(answering: StubResponse(json: #"{"data": {"notice": "later"}}"#))
        let resource = Resource<Person>.get("/me").rootKeys("data").decoded { _, _ in throw CancellationError() }
            .fallback(Notice.self)
        let error = await #expect(throws: APIError.self) { try await client.send(resource) }
        guard case .fallback(let value, let failure) = error else { Issue.record("expected a fallback"); return }
        #expect((value as? Notice)?.notice == "later")
        #expect(failure.underlying is CancellationError)
    }

    @Test func emptyBodyIsNilForAnOptionalAndFineForVoid() async throws {
        let client = try Self.client(answering: StubResponse(status: .noContent))
        #expect(try await client.send(Resource<Person?>.get("/me")) == nil)
        try await client.send(Resource<Void>.delete("/me"))
        await #expect(throws: APIError.self, "an empty body is no Person") {
            try await client.send(Resource<Person>.get("/me"))
        }
    }

    @Test func aValueNeitherDecodableNorVoidNeedsADecodingStep() async throws {
        struct Opaque: Sendable { let text: String }
        let client = try Self.client(answering: StubResponse(text: "ok"))
        let error = await #expect(throws: APIError.self) { try await client.send(Resource<Opaque>.get("/opaque")) }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect("\(failure.underlying)".contains("Opaque is neither Decodable nor Void"))
        let decoded = Resource<Opaque>.get("/opaque").decoded { data, _ in
            Opaque(text: String(decoding: data, as: UTF8.self))
        }
        #expect(try await client.send(decoded).text == "ok")
    }

    @Test func resourceDecoderBeatsTheClients() async throws {
        struct Account: Decodable, Equatable, Sendable { let displayName: String }
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        let client = try Self.client(answering: StubResponse(json: #"{"display_name": "Ada"}"#))
        #expect(
            try await client.send(Resource<Account>.get("/account").decoder(snakeCase)) == Account(displayName: "Ada"))
        await #expect(throws: APIError.self) { try await client.send(Resource<Account>.get("/account")) }
    }

    @Test func envelopeKeepsTheDecodersDateStrategy() async throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let client = try Self.client(answering: StubResponse(json: #"{"at": 86400}"#))
        let date = try await client.send(Resource<Date>.get("/at").unwrapped().decoder(decoder))
        #expect(date == Date(timeIntervalSince1970: 86_400))
    }
}
