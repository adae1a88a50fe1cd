import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

@Suite("APIClient")
struct APIClientTests {
    struct Person: Codable, Equatable, Sendable { let name: String; let age: Int }
    struct APIProblem: Codable, Equatable, Sendable { let code: String; let message: String }

    @Test func buildsTheRequestFromClientDefaultsAndTheResource() async throws {
        let recorder = try Recorder()
        let client = recorder.client(
            .init(
                headerFields: [.authorization: "Bearer t", .accept: "application/json"],
                queryItems: [URLQueryItem(name: "api_key", value: "k&1")]
            ), base: "https://api.test/v2/")
        let resource = Resource<Void>.get("/search", query: ["q": "a b+c"], headerFields: [.accept: "text/plain"])
        try await client.send(resource)
        let request = try #require(recorder.request)
        #expect(request.method == .get)
        #expect(request.target == "/v2/search?api_key=k%261&q=a%20b%2Bc")
        #expect(request.queryValues("q") == ["a b+c"])
        #expect(request.headerFields[.authorization] == "Bearer t")
        #expect(request.headerFields[values: .accept] == ["text/plain"], "the resource's field replaces the default")
    }

    /// As docs/client.md says: a path is written as it reads, and an encoded one is encoded again.
    @Test func pathsAreWrittenAsTheyRead() async throws {
        let recorder = try Recorder()
        let client = recorder.client(.init(), base: "https://api.test")
        try await client.send(Resource<Void>.get("/files/annual report.pdf"))
        #expect(recorder.request?.target == "/files/annual%20report.pdf")
        try await client.send(Resource<Void>.get("/files/annual%20report.pdf"))
        #expect(recorder.request?.target == "/files/annual%2520report.pdf")
    }

    @Test func encodesABodyWithTheClientEncoderAndSetsItsType() async throws {
        let recorder = try Recorder()
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        struct NewUser: Encodable, Sendable { let firstName: String; let yearOfBirth: Int }
        try await recorder.client(.init(encoder: encoder)).send(
            Resource<Void>.post("/users", body: NewUser(firstName: "Ada", yearOfBirth: 1815)))
        let request = try #require(recorder.request)
        #expect(request.bodyText == #"{"first_name":"Ada","year_of_birth":1815}"#)
        #expect(request.headerFields[.contentType] == "application/json")
    }

    @Test func rawBodyKeepsItsContentType() async throws {
        let recorder = try Recorder()
        let resource = Resource<Void>(
            method: .put, path: "/avatar", body: .data(Data([1, 2, 3]), contentType: "image/png"))
        try await recorder.client().send(resource)
        #expect(recorder.request?.body == Data([1, 2, 3]))
        #expect(recorder.request?.headerFields[.contentType] == "image/png")
    }

    @Test func decodesTheValueUnderRootKeys() async throws {
        let recorder = try Recorder(
            answer: StubResponse(json: #"{"data": {"people": [{"name": "Ada", "age": 36}]}, "meta": {}}"#))
        let people = try await recorder.client().send(Resource<[Person]>.get("/people").rootKeys("data", "people"))
        #expect(people == [Person(name: "Ada", age: 36)])
    }

    @Test func decodingFailureCarriesTheRawDataAndCodingPath() async throws {
        let body = #"{"data": {"people": [{"name": "Ada", "age": "thirty-six"}]}}"#
        let recorder = try Recorder(answer: StubResponse(json: body))
        let error = await #expect(throws: APIError.self) {
            try await recorder.client().send(Resource<[Person]>.get("/people").rootKeys("data", "people"))
        }
        guard case .decoding(let failure) = error else {
            Issue.record("expected a decoding failure, got \(String(describing: error))"); return
        }
        #expect(failure.body == Data(body.utf8))
        #expect(failure.codingPath == ["data", "people", "0", "age"])
        #expect(failure.underlying is DecodingError)
    }

    @Test func missingRootKeyIsADecodingFailureNamingIt() async throws {
        let recorder = try Recorder(answer: StubResponse(json: #"{"result": []}"#))
        let error = await #expect(throws: APIError.self) {
            try await recorder.client().send(Resource<[Person]>.get("/x").rootKeys("data"))
        }
        guard case .decoding(let failure) = error else { Issue.record("expected a decoding failure"); return }
        #expect(failure.codingPath == ["data"])
    }

    @Test func unacceptableStatusCarriesTheResponseAndTheDecodedErrorBody() async throws {
        let recorder = try Recorder(
            answer: StubResponse(
                status: .unprocessableContent, headerFields: [.init("X-Request-Id")!: "r1"],
                json: #"{"code": "invalid", "message": "name is required"}"#))
        let error = await #expect(throws: APIError.self) {
            try await recorder.client(.init(errorBodyType: APIProblem.self)).send(Resource<Void>.post("/users"))
        }
        guard case .unacceptableStatus(let failure) = error else { Issue.record("expected a status failure"); return }
        #expect(failure.status == .unprocessableContent)
        #expect(failure.headerFields[.init("X-Request-Id")!] == "r1")
        #expect(failure.value as? APIProblem == APIProblem(code: "invalid", message: "name is required"))
        #expect(String(decoding: failure.body, as: UTF8.self).contains("name is required"))
    }

    /// A status the configuration accepts is answered; the same status refused by the default
    /// configuration throws.
    @Test func acceptableStatusesAreConfigurable() async throws {
        let recorder = try Recorder(answer: StubResponse(status: .notModified))
        let accepted = try await recorder.client(.init(acceptableStatuses: 200..<400)).response(
            for: Resource<Void>.get("/cached"))
        #expect(accepted.status == .notModified)
        let error = await #expect(throws: APIError.self) {
            try await recorder.client().send(Resource<Void>.get("/cached"))
        }
        guard case .unacceptableStatus(let failure) = error else {
            Issue.record("expected an unacceptable status, got \(String(describing: error))"); return
        }
        #expect(failure.status == .notModified)
    }

    @Test func responseVariantGivesStatusAndHeaders() async throws {
        let recorder = try Recorder(
            answer: StubResponse(
                status: .created, headerFields: [.location: "/people/9"], json: #"{"name": "Lin", "age": 3}"#))
        let response = try await recorder.client().response(
            for: Resource<Person>.post("/people", body: Person(name: "Lin", age: 3)))
        #expect(response.value == Person(name: "Lin", age: 3))
        #expect(response.status == .created)
        #expect(response.headerFields[.location] == "/people/9")
        #expect(response.body == Data(#"{"name": "Lin", "age": 3}"#.utf8))
    }

    @Test func voidStringAndDataResources() async throws {
        let recorder = try Recorder(answer: StubResponse(text: "plain words"))
        let client = recorder.client()
        try await client.send(Resource<Void>.delete("/people/1"))
        #expect(try await client.send(Resource<String>.get("/text")) == "plain words")
        #expect(try await client.send(Resource<Data>.get("/bytes")) == Data("plain words".utf8))
    }

    @Test func customDecodeReplacesJSON() async throws {
        let recorder = try Recorder(answer: StubResponse(text: "Ada,36"))
        let resource = Resource<Person>.get("/csv").decoded { data, _ in
            let fields = String(decoding: data, as: UTF8.self).split(separator: ",")
            return Person(name: String(fields[0]), age: Int(fields[1])!)
        }
        #expect(try await recorder.client().send(resource) == Person(name: "Ada", age: 36))
    }

    @Test func completionHandlerVariantDeliversTheResult() async throws {
        let recorder = try Recorder(answer: StubResponse(json: #"{"name": "Ada", "age": 36}"#))
        let person = await withCheckedContinuation { continuation in
            recorder.client().send(Resource<Person>.get("/people/1")) { continuation.resume(returning: $0) }
        }
        #expect(try person.get() == Person(name: "Ada", age: 36))
        let failure = await withCheckedContinuation { continuation in
            recorder.client().send(Resource<[Person]>.get("/people")) { continuation.resume(returning: $0) }
        }
        guard case .failure(.decoding) = failure else {
            Issue.record("expected a decoding failure, got \(failure)"); return
        }
    }

    @Test func cancellingTheCallerCancelsTheRequest() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(delay: .fixed(.seconds(30))), for: .get("/slow"))
        let client = APIClient(baseURL: URL(string: "https://api.test")!, transport: StubTransport(registry))
        let task = Task { try await client.send(Resource<Void>.get("/slow")) }
        for _ in 0..<1_000 where registry.journal.totalCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        guard case .transport(let failure, _) = error else { Issue.record("expected a transport failure"); return }
        #expect(failure == .cancelled)
    }

    @Test func unencodableBodyIsAnInvalidRequest() async throws {
        struct Unencodable: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
            }
        }
        let error = await #expect(throws: APIError.self) {
            try await Recorder().client().send(Resource<Void>.post("/x", body: Unencodable()))
        }
        guard case .invalidRequest(let reason) = error else { Issue.record("expected an invalid request"); return }
        #expect(reason.hasPrefix("the body of POST /x does not encode"))
    }
}

/// A registry whose closure stub keeps the last request it saw.
final class Recorder: Sendable {
    let registry = StubRegistry()
    private let last = LastRequest()
    var request: StubRequest? { last.value.withLock { $0 } }

    init(answer: StubResponse = StubResponse(json: "{}")) throws {
        try registry.register(
            ClosureStub { [last] request in
                last.value.withLock { $0 = request }
                return answer
            }, for: .any("/**"))
    }

    func client(_ configuration: APIClient.Configuration = .init(), base: String = "https://api.test") -> APIClient {
        APIClient(baseURL: URL(string: base)!, configuration: configuration, transport: StubTransport(registry))
    }

    private final class LastRequest: Sendable {
        let value = Mutex<StubRequest?>(nil)
    }
}
