import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The compare mode: real responses held against the stubs that stand for their requests.
@Suite("Real responses compared with their stubs")
struct StubComparisonTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    static func differences(_ real: StubResponse, _ stub: StubResponse, templates: StubResponse? = nil) -> [String] {
        StubComparison.differences(of: real, from: stub, templates: templates).map { "\($0.pointer): \($0.message)" }
    }

    @Test func anEqualResponseDiffersInNothing() {
        let stub = StubResponse(headerFields: Self.json, json: #"{"name": "Ada", "tags": ["a", "b"]}"#)
        #expect(Self.differences(stub, stub).isEmpty)
    }

    @Test func eachStructuralChangeIsNamedByItsPointer() {
        let stub = StubResponse(
            headerFields: [.contentType: "application/json", HTTPField.Name("X-Api-Version")!: "2"],
            json: #"{"name": "Ada", "age": 36, "tags": ["a"], "address": {"city": "London"}, "pets": [{"n": 1}]}"#)
        let real = StubResponse(
            status: .created, headerFields: [.contentType: "application/json", HTTPField.Name("X-Api-Version")!: "3"],
            json: #"{"age": "36", "tags": {"a": true}, "address": ["London"], "pets": [{"n": 1}, {"n": "2"}], "x": 1}"#)
        #expect(
            Self.differences(real, stub) == [
                "/response/status: 201 where the stub answers 200",
                #"/response/headers/X-Api-Version: "3" where the stub sets "2""#,
                "/response/jsonBody/address: an array where the stub has an object",
                "/response/jsonBody/age: a string where the stub has a number",
                "/response/jsonBody/name: missing; the stub has a string",
                "/response/jsonBody/pets/1/n: a string where the stub has a number",
                "/response/jsonBody/tags: an object where the stub has an array",
                "/response/jsonBody/x: a number the stub does not have",
            ])
    }

    @Test func aHeaderFieldTheStubSetsMustBeThere() {
        let stub = StubResponse(headerFields: [HTTPField.Name("X-Rate-Limit")!: "100"], text: "hi")
        #expect(
            Self.differences(StubResponse(text: "hi"), stub) == [
                #"/response/headers/X-Rate-Limit: missing; the stub sets it to "100""#
            ])
    }

    @Test func aBodyThatIsNoLongerJSONIsNamed() {
        let stub = StubResponse(headerFields: Self.json, json: #"{"a": 1}"#)
        #expect(
            Self.differences(StubResponse(headerFields: Self.json, text: "<html>"), stub) == [
                "/response/body: not JSON where the stub has JSON"
            ])
    }

    @Test func volatileValuesAreComparedByTypeOnly() {
        let stub = StubResponse(
            headerFields: [HTTPField.Name("X-Request-Id")!: "a1", .eTag: "\"v1\"", .lastModified: "x"],
            json: """
                {"id": 1, "userId": 2, "created_at": "2024-01-01", "session": "s", "when": "2024-01-01T10:00:00Z",
                 "ref": "2c5ea4c0-4067-11e9-8bad-9b1deb4d3b7d", "key": "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
                 "stamp": 1700000000, "sent": "Tue, 15 Nov 1994 08:12:31 GMT", "count": 1}
                """)
        let real = StubResponse(
            headerFields: [HTTPField.Name("X-Request-Id")!: "b2", .eTag: "\"v2\"", .lastModified: "y"],
            json: """
                {"id": 9, "userId": 8, "created_at": "2025-02-02", "session": "t", "when": "2025-03-03T11:00:00Z",
                 "ref": "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d", "key": "sk_live_9zZ39HqLyjWDarjtT1zdp7aa",
                 "stamp": 1800000000, "sent": "Wed, 16 Nov 1994 09:12:31 GMT", "count": 2}
                """)
        #expect(Self.differences(real, stub) == ["/response/jsonBody/count: 2 where the stub has 1"])
        let changedType = StubResponse(json: #"{"id": "9"}"#)
        #expect(
            Self.differences(changedType, StubResponse(json: #"{"id": 1}"#)) == [
                "/response/jsonBody/id: a string where the stub has a number"
            ])
    }

    @Test(arguments: [
        ("id", true), ("userId", true), ("user_id", true), ("X-Request-Id", true), ("createdAt", true),
        ("expires_at", true), ("nextCursor", true), ("accessToken", true), ("paid", false), ("valid", false),
        ("name", false), ("identity", false),
    ])
    func volatileNames(name: String, volatile: Bool) {
        #expect(StubComparison.isVolatile(name: name) == volatile)
    }

    @Test func templatedValuesAreComparedByTypeOnly() throws {
        let template = StubResponse(json: #"{"name": "{{request.path.1}}", "kind": "user"}"#)
        let rendered = StubResponse(json: #"{"name": "ada", "kind": "user"}"#)
        let real = StubResponse(json: #"{"name": "grace", "kind": "admin"}"#)
        #expect(
            Self.differences(real, rendered, templates: template) == [
                #"/response/jsonBody/kind: "admin" where the stub has "user""#
            ])
    }

    // MARK: The compare mode against a real server

    /// The recorded truth: the stubs folder the real API is compared with.
    static let stubFiles = [
        "users.json": """
        {"request": {"method": "GET", "urlPath": "/users/1"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json", "X-Api-Version": "2"},
                      "jsonBody": {"id": 1, "name": "Ada", "createdAt": "2024-01-01T10:00:00Z", "age": 36,
                                   "tags": ["admin"], "address": {"city": "London"}}}}
        """,
        "orders.json": """
        {"request": {"method": "GET", "urlPath": "/orders/7"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                      "jsonBody": {"id": 7, "total": 12.5}}}
        """,
        "echo.json": """
        {"request": {"method": "GET", "urlPathTemplate": "/echo/{word}"},
         "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                      "jsonBody": {"word": "{{request.path.[1]}}"}, "transformers": ["response-template"]}}
        """,
    ]

    /// The real API as it was recorded, with other ids and dates: volatile values that differ.
    static func unchangedAPI() throws -> StubRegistry {
        let real = StubRegistry()
        let version: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Api-Version")!: "2"]
        try real.register(
            StubResponse(
                headerFields: version,
                json: """
                    {"id": 41, "name": "Ada", "createdAt": "2026-11-27T21:00:00Z", "age": 36, "tags": ["admin"],
                     "address": {"city": "London"}}
                    """), for: .get("/users/1"))
        try real.register(StubResponse(headerFields: json, json: #"{"id": 70, "total": 12.5}"#), for: .get("/orders/7"))
        try real.register(StubResponse(headerFields: json, json: #"{"word": "hello"}"#), for: .get("/echo/hello"))
        return real
    }

    /// The real API after it changed: each kind of change planted once.
    static func changedAPI() throws -> StubRegistry {
        let real = StubRegistry()
        let version: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Api-Version")!: "3"]
        // A missing field (name), an extra one (nickname), a changed type (age), an array where an
        // object was (address) and an object where an array was (tags), and a changed header (X-Api-Version).
        try real.register(
            StubResponse(
                headerFields: version,
                json: """
                    {"id": 1, "nickname": "A", "createdAt": "2024-01-01T10:00:00Z", "age": "36",
                     "tags": {"admin": true}, "address": ["London"]}
                    """), for: .get("/users/1"))
        // A status change.
        try real.register(
            StubResponse(status: .notFound, headerFields: json, json: #"{"id": 7, "total": 12.5}"#),
            for: .get("/orders/7"))
        try real.register(StubResponse(headerFields: json, json: #"{"word": "hello"}"#), for: .get("/echo/hello"))
        return real
    }

    /// Sends each request through a proxy to `real` that compares what comes back with the stubs.
    static func compare(with real: StubRegistry) async throws -> StubComparison.Report {
        let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-compare-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
        for (name, text) in stubFiles {
            try Data(text.utf8).write(to: folder.appending(path: "mappings/\(name)"))
        }
        let before = try Self.contents(of: folder)
        let stubs = StubRegistry()
        try stubs.load(folder: folder, strict: true)
        let comparison = StubComparison(stubs: stubs)
        try await withMockServer(registry: real) { upstream in
            let proxy = StubRegistry()
            try proxy.register(ProxyStub(to: upstream.baseURL), for: Route(method: nil, path: "/**"))
            proxy.proxiedResponseCheck = comparison.proxiedResponseCheck
            try await withMockServer(registry: proxy) { server in
                let session = URLSession(configuration: .ephemeral)
                for path in ["/users/1", "/orders/7", "/echo/hello", "/users/1"] {
                    _ = try await session.data(from: server.baseURL.appending(path: path))
                }
            }
        }
        // It changes no file.
        #expect(try Self.contents(of: folder) == before)
        return comparison.report
    }

    private static func contents(of folder: URL) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "mappings").path)
        return try Dictionary(
            uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: folder.appending(path: "mappings/\($0)"))) })
    }

    @Test func findsEveryChangePlantedInTheRealServer() async throws {
        let report = try await Self.compare(with: try Self.changedAPI())
        #expect(report.compared == 4)
        #expect(report.skipped.isEmpty, "\(report)")
        #expect(
            report.differences.map { "\($0.stub): \($0.pointer): \($0.message)" } == [
                #"mappings/users.json:1: /response/headers/X-Api-Version: "3" where the stub sets "2""#,
                "mappings/users.json:1: /response/jsonBody/address: an array where the stub has an object",
                "mappings/users.json:1: /response/jsonBody/age: a string where the stub has a number",
                "mappings/users.json:1: /response/jsonBody/name: missing; the stub has a string",
                "mappings/users.json:1: /response/jsonBody/nickname: a string the stub does not have",
                "mappings/users.json:1: /response/jsonBody/tags: an object where the stub has an array",
                "mappings/orders.json:1: /response/status: 404 where the stub answers 200",
            ])
    }

    @Test func reportsNothingForAnUnchangedServerWhoseIdsAndDatesDiffer() async throws {
        let report = try await Self.compare(with: try Self.unchangedAPI())
        #expect(report.compared == 4)
        #expect(!report.hasDifferences, "\(report)")
        #expect(report.skipped.isEmpty, "\(report)")
    }
}
