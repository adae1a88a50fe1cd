import Decoy
import Foundation
import Testing

@testable import DecoyOpenAPI

/// Values made from schemas pass those schemas: lengths, patterns, formats, bounds, choices.
@Suite("Values made from schemas")
struct SchemaExampleTests {
    @Test(arguments: [
        #"{"type": "string", "minLength": 13, "maxLength": 13}"#,
        #"{"type": "string", "maxLength": 3}"#,
        #"{"type": "string", "pattern": "^(0|[1-9][0-9]*)$", "minLength": 17}"#,
        #"{"type": "string", "pattern": "^[A-Z]{2}[0-9a-f]{32}$"}"#,
        #"{"type": "string", "pattern": "^(?:\\+|-)?\\d{1,3}(\\.\\d+)?[^a-z]$"}"#,
        #"{"type": "string", "pattern": "^[^,]+(,[^,]+)*$", "maxLength": 5}"#,
        #"{"type": "string", "format": "uuid"}"#,
        #"{"type": "string", "format": "date-time"}"#,
        #"{"type": "string", "format": "email"}"#,
        #"{"type": "string", "format": "uri"}"#,
        #"{"type": "integer", "minimum": 10, "exclusiveMinimum": true, "multipleOf": 4}"#,
        #"{"type": "number", "exclusiveMaximum": -2.5}"#,
        #"{"type": "integer", "maximum": 9223372036854776000, "minimum": -9223372036854776000}"#,
        #"{"type": ["string", "null"], "enum": ["b", "c"], "example": "a"}"#,
        #"{"oneOf": [{"type": "string", "minLength": 2}, {"type": "string", "maxLength": 3}]}"#,
        #"{"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}, "n": {"type": "integer", "minimum": 3}}}"#,
        #"{"type": "array", "minItems": 2, "items": {"type": "string", "pattern": "^x+$"}}"#,
        #"{"allOf": [{"type": "object", "required": ["a"], "properties": {"a": {"type": "boolean"}}}, {"properties": {"b": {"type": "string", "minLength": 4}}}]}"#,
    ])
    func aMadeValuePassesItsSchema(_ schema: String) throws {
        let document = try #require(JSONValue(parsing: Data(#"{"s": \#(schema)}"#.utf8)))
        let validator = SchemaValidator(document: document)
        let value = try #require(SchemaExample(validator: validator).value(forSchemaAt: "#/s"))
        #expect(validator.violations(of: value, schemaAt: "#/s") == [], "\(value)")
    }

    /// The shapes of PagerDuty's document: `Reference` is its base object's properties and a part
    /// that requires two of them; `ServiceReference` narrows `Reference`'s `type` to one value.
    private static let references = ##"""
        "Base": {"type": "object", "properties": {"id": {"type": "string", "readOnly": true}, \##
        "type": {"type": "string"}, "summary": {"type": "string"}}},
        "Reference": {"allOf": [{"$ref": "#/Base"}, {"type": "object", "required": ["type", "id"]}]},
        "ServiceReference": {"allOf": [{"$ref": "#/Reference"}, \##
        {"type": "object", "properties": {"type": {"type": "string", "enum": ["service_reference"]}}}]}
        """##

    @Test(arguments: [
        // Narrowed in the second part: the first part's "string" is no value of the enum.
        ##"{"allOf": [{"$ref": "#/Base"}, {"properties": {"type": {"enum": ["tag"]}}}]}"##,
        ##"{"$ref": "#/ServiceReference"}"##,
        #"{"allOf": [{"type": "integer", "minimum": 3}, {"maximum": 5, "multipleOf": 2}]}"#,
        #"{"allOf": [{"type": "string", "minLength": 3}, {"maxLength": 5, "pattern": "^a+$"}]}"#,
        #"{"allOf": [{"type": ["number", "string"]}, {"type": "integer", "minimum": 1}]}"#,
    ])
    func theAllOfPartsOfAValueAreMergedBeforeItIsMade(_ schema: String) throws {
        let document = try #require(
            JSONValue(parsing: Data(#"{"s": \#(schema), \#(Self.references)}"#.utf8)))
        let validator = SchemaValidator(document: document)
        let value = try #require(SchemaExample(validator: validator).value(forSchemaAt: "#/s"))
        #expect(validator.violations(of: value, schemaAt: "#/s") == [], "\(value)")
    }

    /// The violations of the value made from `#/l0`, eight required objects above `#/l8`, deep
    /// enough that only required properties are made there; `members` are more schemas beside.
    private func violationsEightDeep(_ l8: String, beside members: [String]) throws -> [SchemaViolation] {
        let levels = (0..<8).map { level in
            ##""l\##(level)": {"required": ["next"], "properties": {"next": {"$ref": "#/l\##(level + 1)"}}}"##
        }
        let all = levels + [#""l8": \#(l8)"#] + members
        let document = try #require(JSONValue(parsing: Data("{\(all.joined(separator: ", "))}".utf8)))
        let validator = SchemaValidator(document: document)
        let value = try #require(SchemaExample(validator: validator).value(forSchemaAt: "#/l0"))
        return validator.violations(of: value, schemaAt: "#/l0")
    }

    /// Deep down, where only required properties are made, those an allOf part requires of another
    /// part's properties are made too.
    @Test func aPropertyOneAllOfPartRequiresAndAnotherDescribesIsMadeAtAnyDepth() throws {
        #expect(try violationsEightDeep(##"{"$ref": "#/ServiceReference"}"##, beside: [Self.references]) == [])
    }

    /// Deep down, where only required properties are made, a oneOf whose choices differ only in
    /// an optional property gets a choice with it: PagerDuty's log entries, told apart by `type`,
    /// and its custom field values, by the type of `value`.
    @Test(arguments: [
        #"{"type": "object", "properties": {"kind": {"enum": ["a"]}, "n": {"type": "integer"}}}"#,
        #"{"type": "object", "properties": {"value": {"type": "boolean", "nullable": true}}}"#,
    ])
    func aOneOfDeepDownIsToldApartByOptionalProperties(_ first: String) throws {
        let choices = [
            #""A": \#(first)"#,
            #""B": {"type": "object", "properties": {"kind": {"enum": ["b"]}, "value": {"type": "integer"}}}"#,
        ]
        #expect(
            try violationsEightDeep(
                ##"{"items": {"oneOf": [{"$ref": "#/A"}, {"$ref": "#/B"}]}, "minItems": 1}"##, beside: choices) == [])
    }

    @Test func aSchemaThatRequiresItselfIsCutShort() throws {
        let document = try #require(
            JSONValue(
                parsing: Data(
                    ##"{"node": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/node"}}}}"##
                        .utf8)))
        let value = SchemaExample(validator: SchemaValidator(document: document)).value(forSchemaAt: "#/node")
        // It cannot be satisfied; what matters is that it ends.
        #expect(value != nil)
    }
}
