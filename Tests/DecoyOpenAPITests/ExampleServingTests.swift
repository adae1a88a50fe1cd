import Decoy
import DecoyClient
import DecoyOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// A spec's examples served as Prism serves them, to the generated client in both servings.
@Suite("Serving a spec's examples")
struct ExampleServingTests {
    private func examples() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.registerExamples(of: versioned)
        return registry
    }

    @Test(arguments: OpenAPIServing.allCases)
    func everyOperationAnswersWithItsFirst2xxExample(_ serving: OpenAPIServing) async throws {
        let registry = try examples()
        try await serving.withClient(registry) { client async throws in
            #expect(try await client.getUser(path: .init(id: 1)).ok.body.json == .init(id: 1, name: "Ada"))
            #expect(
                try await client.listUsers(query: .init(limit: 2)).ok.body.json == [
                    .init(id: 1, name: "Ada"), .init(id: 2, name: "Grace"),
                ])
            #expect(
                try await client.createUser(body: .json(.init(name: "Edsger"))).created.body.json
                    == .init(id: 3, name: "Edsger"))
        }
        #expect(registry.journal.totalCount == 3)
    }

    @Test(arguments: OpenAPIServing.allCases)
    func preferCodePicksTheResponse(_ serving: OpenAPIServing) async throws {
        let problem = try await serving.withClient(try examples(), middlewares: [Prefer(value: "code=404")]) { client in
            try await client.getUser(path: .init(id: 1)).notFound.body.json
        }
        #expect(problem == .init(message: "no such user"))
    }

    @Test(arguments: OpenAPIServing.allCases)
    func aStubWinsOverTheExamplesWhicheverCameFirst(_ serving: OpenAPIServing) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"id": 2, "name": "Grace"}"#), for: .get("/v1/users/2"))
        try registry.registerExamples(of: versioned)
        try registry.register(StubResponse(json: "[]"), forOperation: "listUsers", in: versioned)
        try await serving.withClient(registry) { client async throws in
            #expect(try await client.getUser(path: .init(id: 2)).ok.body.json.name == "Grace")
            #expect(try await client.getUser(path: .init(id: 5)).ok.body.json.name == "Ada")
            #expect(try await client.listUsers().ok.body.json == [])
        }
    }

    @Test(arguments: OpenAPIServing.allCases)
    func aParameterOutsideItsSchemaGets400NamingTheSchemaKeyword(_ serving: OpenAPIServing) async throws {
        let output = try await serving.withClient(try examples()) { client in
            try await client.listUsers(query: .init(limit: 500))
        }
        guard case .undocumented(statusCode: 400, let payload) = output, let body = payload.body else {
            Issue.record("expected an undocumented 400, got \(output)")
            return
        }
        let text = try await String(collecting: body, upTo: 1 << 20)
        #expect(text.contains(##""schema" : "#/paths/~1users/get/parameters/0/schema/maximum""##))
        #expect(text.contains(#""message" : "500 is above the maximum 100""#))
        #expect(text.contains(#""place" : "query parameter limit""#))
    }

    /// Requests a generated client would not send, checked through the engine directly.
    @Test(
        arguments: [
            ("/v1/users/0", "GET", "", nil, "#/paths/~1users~1{id}/parameters/0/schema/minimum"),
            ("/v1/users/ada", "GET", "", nil, "#/paths/~1users~1{id}/parameters/0/schema/type"),
            (
                "/v1/users", "POST", #"{"name": ""}"#, "application/json",
                "#/components/schemas/NewUser/properties/name/minLength"
            ),
            (
                "/v1/users", "POST", #"{"name": "x", "admin": true}"#, "application/json",
                "#/components/schemas/NewUser/additionalProperties"
            ),
            ("/v1/users", "POST", #"{}"#, "application/json", "#/components/schemas/NewUser/required"),
            (
                "/v1/users", "POST", #"{"name": 7}"#, "application/json",
                "#/components/schemas/NewUser/properties/name/type"
            ),
            ("/v1/users", "POST", "", nil, "#/paths/~1users/post/requestBody/required"),
            (
                "/v1/users", "POST", "name=x", "application/x-www-form-urlencoded",
                "#/paths/~1users/post/requestBody/content"
            ),
            (
                "/v1/users", "POST", "{", "application/json",
                "#/paths/~1users/post/requestBody/content/application~1json/schema"
            ),
        ] as [(String, String, String, String?, String)])
    func aWrongRequestGets400NamingTheSchemaPath(
        target: String, method: String, body: String, contentType: String?, schema: String
    ) async throws {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        let request = StubRequest(
            method: HTTPRequest.Method(method)!, target: target, headerFields: fields, body: Data(body.utf8))
        let answer = try await examples().engine.answer(request)
        #expect(answer.status == .badRequest)
        #expect(answer.headerFields[.contentType] == "application/problem+json")
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains(##""schema" : "\##(schema)""##), "\(text)")
    }

    @Test(arguments: [
        ("code=418", "the operation has no response 418; it has 200, 404"),
        ("code=abc", "code=abc is not a status code"),
        ("example=nope", #"the response has no example named \"nope\"; it has \"example\""#),
        ("dynamic=true", #"the preference \"dynamic=true\" is not supported; Decoy reads code=… and example=…"#),
    ])
    func aPreferenceDecoyCannotHonourIsRefused(prefer: String, message: String) async throws {
        let request = StubRequest(
            method: .get, target: "/v1/users/1", headerFields: [HTTPField.Name("Prefer")!: prefer])
        let answer = try await examples().engine.answer(request)
        #expect(answer.status == .badRequest)
        #expect(String(decoding: answer.body, as: UTF8.self).contains(message))
    }

    @Test func aResponseWithoutExampleGetsOneMadeFromItsSchema() async throws {
        let spec = try OpenAPISpec(
            data: Data(
                """
                openapi: 3.1.0
                info: {title: T, version: '1'}
                paths:
                  /accounts/{id}:
                    get:
                      responses:
                        '200': {$ref: '#/components/responses/Account'}
                components:
                  responses:
                    Account:
                      description: An account.
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              id: {type: integer, minimum: 1}
                              name: {type: string}
                              since: {type: string, format: date-time}
                              status: {type: string, enum: [active, closed]}
                              tags: {type: array, items: {type: string}}
                              parent: {$ref: '#/components/schemas/Parent'}
                              password: {type: string, writeOnly: true}
                  schemas:
                    Parent:
                      allOf:
                        - {type: object, properties: {id: {type: integer, example: 9}}}
                        - {type: object, properties: {kind: {type: string, default: org}}}
                """.utf8))
        let registry = StubRegistry()
        try registry.registerExamples(of: spec)
        let answer = try await registry.engine.answer(StubRequest(method: .get, target: "/accounts/1"))
        #expect(answer.status == .ok)
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == #"""
                {"id":1,"name":"string","parent":{"id":9,"kind":"org"},"since":"2024-01-01T00:00:00Z",\#
                "status":"active","tags":["string"]}
                """#
        )
        #expect(spec.unsupported == [])
    }

    @Test func headerAndCookieParametersAreChecked() async throws {
        let spec = try OpenAPISpec(
            data: Data(
                """
                openapi: 3.0.3
                info: {title: T, version: '1'}
                paths:
                  /report:
                    get:
                      parameters:
                        - {name: X-Tenant, in: header, required: true, schema: {type: integer}}
                        - {name: Authorization, in: header, required: true, schema: {type: string}}
                        - {name: session, in: cookie, schema: {type: string, minLength: 4}}
                      responses:
                        '204': {description: Done.}
                """.utf8))
        let registry = StubRegistry()
        try registry.registerExamples(of: spec)
        func status(_ fields: HTTPFields) async throws -> (Int, String) {
            let answer = try await registry.engine.answer(
                StubRequest(method: .get, target: "/report", headerFields: fields))
            return (answer.status.code, String(decoding: answer.body, as: UTF8.self))
        }
        // Authorization is left to security schemes, as OpenAPI says.
        #expect(try await status([HTTPField.Name("X-Tenant")!: "7", .cookie: "session=abcd"]).0 == 204)
        let missing = try await status([:])
        #expect(missing.0 == 400)
        #expect(missing.1.contains(##""schema" : "#/paths/~1report/get/parameters/0/required""##))
        #expect(!missing.1.contains("Authorization"))
        let short = try await status([HTTPField.Name("X-Tenant")!: "7", .cookie: "theme=dark; session=abc"])
        #expect(short.1.contains(##""schema" : "#/paths/~1report/get/parameters/2/schema/minLength""##))
    }

    @Test func preferExamplePicksANamedExample() async throws {
        let request = StubRequest(
            method: .get, target: "/v1/users", headerFields: [HTTPField.Name("Prefer")!: "example=two"])
        let answer = try await examples().engine.answer(request)
        #expect(answer.status == .ok)
        #expect(
            JSONValue(parsing: answer.body)
                == JSONValue(parsing: Data(#"[{"id": 1, "name": "Ada"}, {"id": 2, "name": "Grace"}]"#.utf8)))
    }
}
