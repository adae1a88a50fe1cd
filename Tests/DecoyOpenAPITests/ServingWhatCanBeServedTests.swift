import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyOpenAPI

/// What real documents bring: spots Decoy cannot serve among many it can, recursive schemas,
/// large integers, templates inside a segment, literal paths beside templates, order in JSON,
/// parameter styles and server paths.
@Suite("Serving what a document lets serve")
struct ServingWhatCanBeServedTests {
    private static func spec(_ text: String, strict: Bool = false, basePath: String = "") throws -> OpenAPISpec {
        try OpenAPISpec(data: Data(text.utf8), source: "doc", basePath: basePath, strict: strict)
    }

    private static func answer(
        _ spec: OpenAPISpec, _ target: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]
    ) async throws -> (status: Int, body: String) {
        let registry = StubRegistry()
        try registry.registerExamples(of: spec)
        let answer = try await registry.engine.answer(
            StubRequest(method: method, target: target, headerFields: headers))
        return (answer.status.code, String(decoding: answer.body, as: UTF8.self))
    }

    private static let partlyBroken = """
        openapi: 3.1.0
        info: {title: T, version: '1'}
        paths:
          /good:
            get:
              operationId: good
              responses: {'200': {description: d, content: {application/json: {example: {ok: true}}}}}
          /broken:
            get:
              operationId: broken
              responses: {'200': {$ref: '#/components/responses/Nope'}}
          /odd:
            get:
              responses: 7
        """

    @Test func anOperationThatCannotBeServedIsRefusedByNameAndTheRestServes() async throws {
        let spec = try Self.spec(Self.partlyBroken)
        #expect(spec.operations.map(\.description) == ["good (GET /good)"])
        #expect(
            spec.refused.map(\.description) == [
                "#/paths/~1broken/get/responses/200/$ref: the reference #/components/responses/Nope leads nowhere in the document",
                "#/paths/~1odd/get/responses: responses must be a map of status codes to responses",
            ])
        #expect(try await Self.answer(spec, "/good") == (200, #"{"ok":true}"#))
        let refused = try await Self.answer(spec, "/broken")
        #expect(refused.status == 501)
        #expect(refused.body.contains("#/paths/~1broken/get/responses/200/$ref"))
        #expect(throws: DecoyError.self) { try spec.operation("broken") }
    }

    @Test func strictRefusesTheWholeDocumentAtItsFirstRefusal() {
        #expect {
            try Self.spec(Self.partlyBroken, strict: true)
        } throws: { error in
            "\(error)"
                == "doc, at #/paths/~1broken/get/responses/200/$ref: the reference #/components/responses/Nope leads nowhere in the document (and 1 more operations are refused)"
        }
    }

    private static let recursive = """
        openapi: 3.1.0
        info: {title: T, version: '1'}
        paths:
          /errors:
            post:
              requestBody:
                required: true
                content: {application/json: {schema: {$ref: '#/components/schemas/ErrorDetails'}}}
              responses:
                '200': {description: d, content: {application/json: {schema: {$ref: '#/components/schemas/ErrorDetails'}}}}
        components:
          schemas:
            ErrorDetails:
              type: object
              required: [code]
              properties:
                code: {type: integer, maximum: 9223372036854776000, exclusiveMinimum: true, minimum: 0}
                errors: {type: object, additionalProperties: {$ref: '#/components/schemas/ErrorDetails'}}
                children: {type: array, items: {$ref: '#/components/schemas/ErrorDetails'}}
        """

    @Test func aRecursiveSchemaWithLargeIntegersAnd30StyleBoundsIsCheckedAndMadeFinite() async throws {
        let spec = try Self.spec(Self.recursive)
        #expect(spec.refused.isEmpty)
        let registry = StubRegistry()
        try registry.registerExamples(of: spec)
        func post(_ body: String) async throws -> Int {
            try await registry.engine.answer(
                StubRequest(
                    method: .post, target: "/errors", headerFields: [.contentType: "application/json"],
                    body: Data(body.utf8))
            ).status.code
        }
        #expect(try await post(#"{"code": 1, "children": [{"code": 2, "errors": {"a": {"code": 3}}}]}"#) == 200)
        // 0 is not above the 3.0-style exclusive minimum, deep in the recursion.
        #expect(try await post(#"{"code": 1, "children": [{"code": 2, "errors": {"a": {"code": 0}}}]}"#) == 400)
        let made = try await registry.engine.answer(
            StubRequest(
                method: .post, target: "/errors", headerFields: [.contentType: "application/json"],
                body: Data(#"{"code": 1}"#.utf8)))
        let value = try #require(JSONValue(parsing: made.body))
        #expect(
            SchemaValidator(document: spec.document).violations(
                of: value, schemaAt: "#/components/schemas/ErrorDetails"
            ).isEmpty)
        #expect(value["code"] == .number(1))
    }

    @Test func aTemplateInsideASegmentRoutesAndItsValueIsChecked() async throws {
        let spec = try Self.spec(
            """
            openapi: 3.0.1
            info: {title: T, version: '1'}
            paths:
              /Accounts/{Sid}/Calls/{CallSid}.json:
                get:
                  parameters:
                    - {name: Sid, in: path, required: true, schema: {type: string, pattern: '^AC[0-9a-f]{4}$'}}
                    - {name: CallSid, in: path, required: true, schema: {type: string, minLength: 3}}
                  responses: {'200': {description: d, content: {application/json: {example: {ok: 1}}}}}
            """)
        #expect(spec.refused.isEmpty)
        #expect(try await Self.answer(spec, "/Accounts/AC00ff/Calls/CA1.json").status == 200)
        let bad = try await Self.answer(spec, "/Accounts/AC00ff/Calls/C.json")
        #expect(bad.status == 400)
        #expect(bad.body.contains("CallSid"))
        #expect(try await Self.answer(spec, "/Accounts/AC00ff/Calls/CA1.xml").status == 404)
    }

    @Test func concretePathsMatchBeforeTemplatedOnesThenFewerTemplatesFirst() async throws {
        let spec = try Self.spec(
            """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /pet/{petId}:
                get:
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
                  responses: {'200': {description: d, content: {application/json: {example: pet}}}}
              /pet/{kind}/{name}:
                get:
                  parameters:
                    - {name: kind, in: path, required: true, schema: {type: string}}
                    - {name: name, in: path, required: true, schema: {type: string}}
                  responses: {'200': {description: d, content: {application/json: {example: two}}}}
              /pet/findByStatus:
                get:
                  responses: {'200': {description: d, content: {application/json: {example: found}}}}
              /pet/{petId}/photo:
                get:
                  parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
                  responses: {'200': {description: d, content: {application/json: {example: photo}}}}
              /pet/findByStatus/{status}:
                get:
                  parameters: [{name: status, in: path, required: true, schema: {type: string}}]
                  responses: {'200': {description: d, content: {application/json: {example: status}}}}
            """)
        #expect(try await Self.answer(spec, "/pet/findByStatus") == (200, #""found""#))
        #expect(try await Self.answer(spec, "/pet/7") == (200, #""pet""#))
        #expect(try await Self.answer(spec, "/pet/7/photo") == (200, #""photo""#))
        #expect(try await Self.answer(spec, "/pet/findByStatus/sold") == (200, #""status""#))
        #expect(try await Self.answer(spec, "/pet/cat/tom") == (200, #""two""#))
    }

    @Test func theFirst2xxAndTheFirstExampleAreTheDocumentsInJSONWhateverTheHashOrder() async throws {
        // Every order of five responses and three examples, written as JSON: a dictionary's
        // order would pick another one for some of them.
        var generator = SplitMix64(seed: 33)
        for _ in 0..<20 {
            let codes = ["200", "201", "202", "204", "299"].shuffled(using: &generator)
            let names = ["alpha", "beta", "gamma", "delta"].shuffled(using: &generator)
            let examples = names.map { #""\#($0)": {"value": "\#($0)"}"# }.joined(separator: ", ")
            let responses = codes.map {
                #""\#($0)": {"description": "d", "content": {"application/json": {"examples": {\#(examples)}}}}"#
            }.joined(separator: ", ")
            let json = #"""
                {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
                 "paths": {"/a": {"get": {"responses": {\#(responses)}}}}}
                """#
            let spec = try Self.spec(json)
            let answer = try await Self.answer(spec, "/a")
            #expect(answer.status == Int(codes[0])!)
            #expect(answer.body == #""\#(names[0])""#)
        }
    }

    @Test func anExampleThatMissesItsSchemaIsServedOnlyByName() async throws {
        let spec = try Self.spec(
            """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: d
                      content:
                        application/json:
                          schema: {type: object, required: [id], properties: {id: {type: string, minLength: 3}}}
                          examples:
                            wrong: {value: {id: 7}}
                            right: {value: {id: abc}}
              /b:
                get:
                  responses: {'302': {description: moved}, default: {description: d}}
            """)
        #expect(try await Self.answer(spec, "/a") == (200, #"{"id":"abc"}"#))
        #expect(
            try await Self.answer(spec, "/a", headers: [HTTPField.Name("Prefer")!: "example=wrong"]) == (
                200, #"{"id":7}"#
            ))
        #expect(
            spec.failingExamples == [
                """
                #/paths/~1a/get/responses/200/content/application~1json/examples/wrong: \
                #/paths/~1a/get/responses/200/content/application~1json/schema/properties/id/type: expected string, \
                got 7
                """
            ])
        #expect(spec.unsupported == [])
        // Without a 2xx, the first response the document declares.
        #expect(try await Self.answer(spec, "/b").status == 302)
    }

    /// PagerDuty's shape: an example written for the base object, whose `type` the allOf narrows.
    @Test func anUnnamedExampleThatMissesItsSchemaGivesWayToAMadeBodyAndAnswersToTheNameExample() async throws {
        let spec = try Self.spec(
            """
            openapi: 3.0.2
            info: {title: T, version: '1'}
            paths:
              /services/{id}:
                get:
                  responses:
                    '200':
                      description: d
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/ServiceReference'}
                          example: {id: P1, type: tag}
            components:
              schemas:
                Base: {type: object, properties: {id: {type: string, readOnly: true}, type: {type: string}}}
                Reference: {allOf: [{$ref: '#/components/schemas/Base'}, {type: object, required: [type, id]}]}
                ServiceReference:
                  allOf:
                    - {$ref: '#/components/schemas/Reference'}
                    - {type: object, properties: {type: {type: string, enum: [service_reference]}}}
            """)
        #expect(try await Self.answer(spec, "/services/P1") == (200, #"{"id":"string","type":"service_reference"}"#))
        #expect(
            try await Self.answer(spec, "/services/P1", headers: [HTTPField.Name("Prefer")!: "example=example"]) == (
                200, #"{"id":"P1","type":"tag"}"#
            ))
    }

    @Test func aServersPathIsTheBasePathOnRequest() throws {
        let spec = try Self.spec(
            """
            openapi: 3.0.0
            info: {title: T, version: '1'}
            servers: [{url: 'https://app.asana.com/api/1.0/'}, {url: 'https://other.example/v2'}]
            paths: {}
            """)
        #expect(spec.serverBasePath == "/api/1.0")
    }

    @Test func queryArraysAreReadAsTheirStyleWritesThem() async throws {
        let spec = try Self.spec(
            """
            openapi: 3.0.0
            info: {title: T, version: '1'}
            paths:
              /tasks/{ids}:
                get:
                  parameters:
                    - {name: ids, in: path, required: true, style: label, explode: true, schema: {type: array, items: {type: integer}}}
                    - {name: opt_fields, in: query, style: form, explode: false, schema: {type: array, items: {type: string, enum: [name, notes]}}}
                    - {name: tags, in: query, style: pipeDelimited, schema: {type: array, items: {type: integer}}}
                    - {name: X-Ids, in: header, schema: {type: array, items: {type: integer}}}
                  responses: {'200': {description: d, content: {application/json: {example: ok}}}}
            """)
        #expect(spec.unsupported.isEmpty)
        #expect(
            try await Self.answer(
                spec, "/tasks/.1.2?opt_fields=name,notes&tags=1|2", headers: [HTTPField.Name("X-Ids")!: "3,4"]
            ).status == 200)
        #expect(try await Self.answer(spec, "/tasks/.1.x").status == 400)
        #expect(try await Self.answer(spec, "/tasks/.1?opt_fields=name,color").status == 400)
        #expect(try await Self.answer(spec, "/tasks/.1?tags=1|b").status == 400)
        #expect(try await Self.answer(spec, "/tasks/.1", headers: [HTTPField.Name("X-Ids")!: "3,x"]).status == 400)
    }
}
