import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyOpenAPI

/// The small specs under Specs/, shared by the tests of this target.
enum Specs {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: "Specs/\(name)", withExtension: nil)!
    }

    static let users = try! OpenAPISpec(contentsOf: url("users.yaml"))
}

@Suite("Reading OpenAPI documents")
struct OpenAPISpecTests {
    @Test func a30YAMLDocumentGivesItsOperationsInOrderWithTheirRoutes() throws {
        let spec = Specs.users
        #expect(
            spec.operations.map(\.description) == [
                "listUsers (GET /users)", "createUser (POST /users)", "getUser (GET /users/{id})",
            ])
        #expect(try spec.operation("getUser").route == .get("/users/{id}"))
        #expect(try spec.operation("getUser").pointer == "#/paths/~1users~1{id}/get")
    }

    @Test func a31JSONDocumentIsReadToo() throws {
        let json = #"""
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
             "paths": {"/pets/{petId}": {"delete": {"operationId": "deletePet",
               "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": ["integer", "null"]}}],
               "responses": {"204": {"description": "Gone."}}}}}}
            """#
        let spec = try OpenAPISpec(data: Data(json.utf8), source: "pets.json")
        #expect(try spec.operation("deletePet").route == Route(method: .delete, path: "/pets/{petId}"))
        #expect(spec.unsupported.isEmpty)
    }

    @Test func aBasePathComesBeforeEveryPath() throws {
        let spec = try OpenAPISpec(contentsOf: Specs.url("users.yaml"), basePath: "/v1")
        #expect(try spec.operation("getUser").path == "/v1/users/{id}")
        #expect(throws: DecoyError.self) { try OpenAPISpec(contentsOf: Specs.url("users.yaml"), basePath: "v1/") }
    }

    @Test func anUnknownOperationIdIsRefusedNamingTheKnownOnes() {
        #expect {
            try Specs.users.operation("getUsr")
        } throws: { error in
            "\(error)"
                == #"users.yaml: no operation has the operationId "getUsr"; it has "listUsers", "createUser", "getUser""#
        }
    }

    @Test(arguments: [
        // A YAML syntax error: its line and column.
        ("openapi: 3.0.3\ninfo: [title\n", "broken.yaml, at line 3, column 1: is not valid YAML"),
        // A control character: in words, its line and column, and not the raw line.
        (
            "openapi: 3.0.3\ninfo: {title: \"a\u{0}b\"}\n",
            "broken.yaml, at line 2, column 17: is not valid YAML: the character U+0000 is not allowed"
        ),
        // A field of the wrong kind: its JSON pointer.
        (
            "openapi: 3.0.3\ninfo:\n  title: T\n  version: 1\npaths:\n  /a:\n    get:\n      responses: 7\n",
            "broken.yaml, at #/paths/~1a/get/responses: responses must be a map"
        ),
        // An unknown version.
        (
            "openapi: 2.0\ninfo: {title: T, version: '1'}\npaths: {}\n",
            #"broken.yaml: has no "openapi" field naming its version"#
        ),
        (
            "openapi: '4.0.0'\ninfo: {title: T, version: '1'}\npaths: {}\n",
            "broken.yaml, at #/openapi: version 4.0.0 is not read"
        ),
        // A reference to nothing.
        (
            "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n",
            "broken.yaml, at #/paths/~1a/get/responses/200/$ref: the reference #/components/responses/Nope leads nowhere"
        ),
        // Two operations with one id.
        (
            "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get: {operationId: x, responses: {'200': {description: d}}}\n    put: {operationId: x, responses: {'200': {description: d}}}\n",
            #"broken.yaml, at #/paths/~1a/put: operationId "x" is also the id of GET /a"#
        ),
    ])
    func aMalformedDocumentIsRefusedNamingThePlaceWhenStrict(document: String, expected: String) {
        #expect {
            try OpenAPISpec(data: Data(document.utf8), source: "broken.yaml", strict: true)
        } throws: { error in
            let said = "\(error)"
            if !said.contains(expected) { Issue.record("\(said) does not contain \(expected)") }
            return said.contains(expected)
        }
    }

    @Test func malformedJSONNamesWhereItBreaks() {
        #expect {
            try OpenAPISpec(data: Data("{\"openapi\": \"3.1.0\",\n  \"info\": }".utf8), source: "broken.json")
        } throws: { error in
            "\(error)".hasPrefix("broken.json, at line 2, column 11: is not valid JSON")
        }
    }

    @Test func whatDecoyDoesNotSupportIsReportedWithItsPlace() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a:
                post:
                  parameters:
                    - {name: when, in: query, schema: {type: string, format: ipv4}}
                    - {name: ids, in: query, style: form, explode: false, schema: {type: array, items: {type: integer}}}
                    - {name: page, in: query, style: form, explode: true, schema: {type: integer}}
                  requestBody:
                    content:
                      application/json:
                        schema: {type: object, patternProperties: {'^x': {type: string}}}
                      text/plain:
                        schema: {type: string}
                  security: [{key: []}]
                  responses:
                    '201': {description: d, content: {text/plain: {}}}
            components:
              securitySchemes:
                key: {type: apiKey, name: X-Key, in: header}
            """
        let spec = try OpenAPISpec(data: Data(yaml.utf8))
        #expect(
            spec.unsupported == [
                "#/paths/~1a/post: security requirements are not checked",
                "#/paths/~1a/post/parameters/0/schema/format: the format ipv4 is not checked",
                "#/paths/~1a/post/requestBody/content/application~1json/schema/patternProperties: the keyword patternProperties is not checked",
                "#/paths/~1a/post/requestBody/content/text~1plain/schema: bodies of text/plain are not checked against their schema",
                "#/paths/~1a/post/responses/201/content/text~1plain: no example, and no schema to make one from: answered with an empty body",
            ])
    }

    @Test func yamlScalarsAreReadAsYAMLReadsThem() throws {
        let yaml = """
            a: [1, -2.5, 9223372036854776000, 0x1F, .inf, true, no, ~, null, '7', "true", 3.0.1, 2024-01-01, 1_000, 1e3, x]
            '200': {200: ok}
            """
        let value = try OrderedDocument(yaml: yaml).value
        #expect(
            value["a"]
                == .array([
                    .number(1), .number(-2.5), .number(0x1p63), .number(31), .number(.infinity),
                    .bool(true), .bool(false), .null, .null, .string("7"), .string("true"), .string("3.0.1"),
                    .string("2024-01-01"), .number(1000), .string("1e3"), .string("x"),
                ]))
        #expect(value["200"]?["200"] == .string("ok"))
    }
}
