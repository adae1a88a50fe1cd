import Decoy
import Foundation
import Testing

@testable import DecoyOpenAPI

/// Each keyword against values that pass and values that fail, in 3.0's dialect and 3.1's.
@Suite("Checking values against schemas")
struct SchemaValidatorTests {
    private static let spec = try! OpenAPISpec(
        data: Data(
            """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths: {}
            components:
              schemas:
                Account:
                  type: object
                  required: [id, email, since]
                  properties:
                    id: {type: string, format: uuid, readOnly: true}
                    email: {type: string, format: email}
                    since: {type: string, format: date-time}
                    born: {type: string, format: date}
                    count: {type: integer, format: int32}
                    code: {type: string, pattern: '^[A-Z]{3}$'}
                    tags: {type: array, items: {type: string}, uniqueItems: true, maxItems: 2}
                    ratio: {type: number, exclusiveMinimum: 0, multipleOf: 0.5}
                    kind: {enum: [a, b]}
                    note: {type: [string, 'null']}
                    pet: {oneOf: [{type: string}, {type: integer}]}
            """.utf8))

    private func violations(_ json: String) -> [String] {
        SchemaValidator(document: Self.spec.document)
            .violations(of: JSONValue(parsing: Data(json.utf8))!, schemaAt: "#/components/schemas/Account")
            .map {
                """
                \($0.instancePath) \
                \($0.schemaPath.replacingOccurrences(of: "#/components/schemas/Account", with: "")): \($0.message)
                """
            }
    }

    @Test func aValidValuePassesAndAReadOnlyPropertyIsNotRequiredOfARequest() {
        #expect(
            violations(
                #"""
                {"email": "ada@example.com", "since": "2024-05-01T10:00:00Z", "born": "1815-12-10", "count": 3, \#
                "code": "ABC", "tags": ["x"], "ratio": 1.5, "kind": "a", "note": null, "pet": 7}
                """#
            ) == [])
    }

    @Test(arguments: [
        ("email", #""ada""#, #"/email /properties/email/format: "ada" is not a valid email"#),
        ("since", #""yesterday""#, #"/since /properties/since/format: "yesterday" is not a valid date-time"#),
        ("id", #""42""#, #"/id /properties/id/format: "42" is not a valid uuid"#),
        (
            "born", #""1815-12-10T00:00:00Z""#,
            #"/born /properties/born/format: "1815-12-10T00:00:00Z" is not a valid date"#
        ),
        ("count", #"3000000000"#, "/count /properties/count/format: 3000000000 is outside the range of int32"),
        ("count", #"1.5"#, "/count /properties/count/type: expected integer, got 1.5"),
        ("code", #""abc""#, #"/code /properties/code/pattern: "abc" does not match ^[A-Z]{3}$"#),
        ("tags", #"["x", "x"]"#, "/tags /properties/tags/uniqueItems: the items are not unique"),
        ("tags", #"["x", "y", "z"]"#, "/tags /properties/tags/maxItems: more than 2 items"),
        ("tags", #"[1]"#, "/tags/0 /properties/tags/items/type: expected string, got 1"),
        ("ratio", #"0"#, "/ratio /properties/ratio/exclusiveMinimum: 0 is not above 0"),
        ("ratio", #"0.7"#, "/ratio /properties/ratio/multipleOf: 0.7 is not a multiple of 0.5"),
        ("kind", #""c""#, #"/kind /properties/kind/enum: "c" is not one of "a", "b""#),
        ("note", #"1"#, "/note /properties/note/type: expected string or null, got 1"),
        ("pet", #"true"#, "/pet /properties/pet/oneOf: matches 0 of the 2 schemas, not exactly one"),
    ])
    func aValueOutsideItsSchemaNamesTheKeyword(name: String, value: String, expected: String) {
        var members = ["email": #""ada@example.com""#, "since": #""2024-05-01T10:00:00Z""#]
        members[name] = value
        #expect(
            violations("{" + members.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}") == [expected])
    }

    @Test func aMissingRequiredPropertyIsNamed() {
        #expect(violations(#"{"email": "ada@example.com"}"#) == [#" /required: the property "since" is missing"#])
    }

    /// PagerDuty's `Reference`: one allOf part declares the read-only `id`, another requires it.
    @Test func aReadOnlyPropertyThatAnotherAllOfPartRequiresIsNotRequiredOfARequest() throws {
        let document = try #require(
            JSONValue(
                parsing: Data(
                    ##"""
                    {"Base": {"type": "object", "properties": {"id": {"type": "string", "readOnly": true}, \##
                    "type": {"type": "string"}}},
                    "Reference": {"allOf": [{"$ref": "#/Base"}, {"type": "object", "required": ["type", "id"]}]},
                    "Service": {"allOf": [{"$ref": "#/Reference"}, {"properties": {"name": {"type": "string"}}}]}}
                    """##.utf8)))
        let validator = SchemaValidator(document: document)
        #expect(validator.violations(of: .object(["type": .string("service")]), schemaAt: "#/Service") == [])
        #expect(
            validator.violations(of: .object(["id": .string("P1")]), schemaAt: "#/Service").map(\.schemaPath) == [
                "#/Reference/allOf/1/required"
            ])
    }

    @Test func the30DialectsNullableAndExclusiveFlagsAreRead() throws {
        let spec = try OpenAPISpec(
            data: Data(
                """
                openapi: 3.0.3
                info: {title: T, version: '1'}
                paths: {}
                components:
                  schemas:
                    Limit: {type: integer, nullable: true, maximum: 10, exclusiveMaximum: true}
                """.utf8))
        let validator = SchemaValidator(document: spec.document)
        #expect(validator.violations(of: .null, schemaAt: "#/components/schemas/Limit") == [])
        #expect(validator.violations(of: .number(9), schemaAt: "#/components/schemas/Limit") == [])
        #expect(
            validator.violations(of: .number(10), schemaAt: "#/components/schemas/Limit").map(\.message) == [
                "10 is above the maximum 10 (exclusive)"
            ])
    }
}
