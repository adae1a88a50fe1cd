import Decoy
import DecoyServerTesting
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// Every request field and matcher of the stub file format, each against a request that
/// matches and one that does not.
@Suite("Stub files: matching")
struct StubFileMatchingTests {
    static let wiremock = "wiremock"
    static let json: HTTPFields = [.contentType: "application/json"]

    static let cases: [StubFileCase] = [
        .init("url matches path and query exactly", fixture: wiremock, .get, "/search?q=swift&page=1", text: "url"),
        .init("url refuses another query", fixture: wiremock, .get, "/search?q=swift", status: 404, text: nil),
        .init(
            "urlPattern matches path and query", fixture: wiremock, .get, "/reports/2026?format=csv", text: "urlPattern"
        ),
        .init(
            "urlPattern refuses another query", fixture: wiremock, .get, "/reports/2026?format=doc", status: 404,
            text: nil),
        .init("urlPath ignores the query", fixture: wiremock, .get, "/people/Ada?verbose=1", text: "urlPath"),
        .init("urlPathPattern", fixture: wiremock, .get, "/files/notes.txt", text: "urlPathPattern"),
        .init("urlPathPattern refuses", fixture: wiremock, .get, "/files/Notes.txt", status: 404, text: nil),
        .init("urlPathTemplate", fixture: wiremock, .get, "/teams/core/members/7", text: "urlPathTemplate"),
        .init("method ANY", fixture: wiremock, .delete, "/any", text: "any method"),
        .init("no method is any method", fixture: wiremock, .patch, "/no-method", text: "no method is any method"),
        .init("method must match", fixture: wiremock, .post, "/people/Ada", status: 404, text: nil),
        .init("queryParameters equalTo", fixture: wiremock, .get, "/query?q=a", text: "query equalTo"),
        .init("queryParameters equalTo refuses", fixture: wiremock, .get, "/query?q=b", status: 404, text: nil),
        .init(
            "headers equalTo caseInsensitive", fixture: wiremock, .get, "/headers",
            headerFields: [HTTPField.Name("X-Mode")!: "fast"], text: "header equalTo caseInsensitive"),
        .init(
            "header names ignore case", fixture: wiremock, .get, "/header-name",
            headerFields: [HTTPField.Name("X-API-KEY")!: "k"], text: "header names ignore case"),
        .init("headers absent", fixture: wiremock, .get, "/absent", text: "header absent"),
        .init(
            "headers absent refuses", fixture: wiremock, .get, "/absent", headerFields: [.authorization: "Bearer x"],
            status: 404, text: nil),
        .init(
            "cookies", fixture: wiremock, .get, "/cookies", headerFields: [.cookie: "theme=dark; session=abc"],
            text: "cookie equalTo"),
        .init(
            "cookies refuse", fixture: wiremock, .get, "/cookies", headerFields: [.cookie: "session=xyz"], status: 404,
            text: nil),
        .init("body equalTo", fixture: wiremock, .post, "/body/equal", body: "hello", text: "body equalTo"),
        .init(
            "body contains", fixture: wiremock, .post, "/body/contains", body: "haystack needle haystack",
            text: "body contains"),
        .init("body matches", fixture: wiremock, .post, "/body/matches", body: "2026", text: "body matches"),
        .init(
            "body matches the whole body", fixture: wiremock, .post, "/body/matches", body: "x2026", status: 404,
            text: nil),
        .init("body doesNotMatch", fixture: wiremock, .post, "/body/not", body: "public", text: "body doesNotMatch"),
        .init(
            "body doesNotMatch refuses", fixture: wiremock, .post, "/body/not", body: "secret sauce", status: 404,
            text: nil),
        .init(
            "equalToJson ignores spacing and member order", fixture: wiremock, .post, "/json/strict",
            body: #"{ "b": [1, 2.0], "a": 1 }"#, text: "equalToJson"),
        .init(
            "equalToJson refuses another array order", fixture: wiremock, .post, "/json/strict",
            body: #"{"a": 1, "b": [2, 1]}"#, status: 404, text: nil),
        .init(
            "equalToJson refuses extra members", fixture: wiremock, .post, "/json/strict",
            body: #"{"a": 1, "b": [1, 2], "c": 3}"#, status: 404, text: nil),
        .init(
            "equalToJson ignoreArrayOrder", fixture: wiremock, .post, "/json/unordered", body: #"{"tags": ["y", "x"]}"#,
            text: "equalToJson ignoreArrayOrder"),
        .init(
            "equalToJson ignoreExtraElements", fixture: wiremock, .post, "/json/extra", body: #"{"a": 1, "b": 2}"#,
            text: "equalToJson ignoreExtraElements"),
        .init(
            "equalToJson given as text", fixture: wiremock, .post, "/json/string", body: #"{"a":1}"#,
            text: "equalToJson as text"),
        .init(
            "matchesJsonPath existence", fixture: wiremock, .post, "/jsonpath/exists", body: #"{"user": {"id": 0}}"#,
            text: "matchesJsonPath"),
        .init(
            "matchesJsonPath: null is absent", fixture: wiremock, .post, "/jsonpath/exists",
            body: #"{"user": {"id": null}}"#, status: 404, text: nil),
        .init(
            "matchesJsonPath index with equalTo", fixture: wiremock, .post, "/jsonpath/index",
            body: #"{"items": [{"sku": "A-1"}, {"sku": "B-7"}]}"#, text: "matchesJsonPath index"),
        .init(
            "matchesJsonPath index refuses", fixture: wiremock, .post, "/jsonpath/index",
            body: #"{"items": [{"sku": "B-7"}, {"sku": "A-1"}]}"#, status: 404, text: nil),
        .init(
            "matchesJsonPath wildcard with contains", fixture: wiremock, .post, "/jsonpath/all",
            body: #"{"items": [{"sku": "A-1"}, {"sku": "B-7"}]}"#, text: "matchesJsonPath wildcard"),
        .init(
            "matchesJsonPath quoted members", fixture: wiremock, .post, "/jsonpath/quoted",
            body: #"{"user": {"first name": "Ada"}}"#, text: "matchesJsonPath quoted member"),
        .init(
            "matchesJsonPath on a body that is not JSON", fixture: wiremock, .post, "/jsonpath/exists", body: "user.id",
            status: 404, text: nil),
        .init(
            "and, or, doesNotContain", fixture: wiremock, .get, "/logic?q=abc",
            headerFields: [HTTPField.Name("X-Kind")!: "two"], text: "and, or"),
        .init(
            "and refuses when one fails", fixture: wiremock, .get, "/logic?q=abz",
            headerFields: [HTTPField.Name("X-Kind")!: "two"], status: 404, text: nil),
        .init(
            "or refuses when none holds", fixture: wiremock, .get, "/logic?q=abc",
            headerFields: [HTTPField.Name("X-Kind")!: "three"], status: 404, text: nil),
        .init("not", fixture: wiremock, .get, "/not", headerFields: [HTTPField.Name("X-Mode")!: "fast"], text: "not"),
        .init(
            "not refuses", fixture: wiremock, .get, "/not", headerFields: [HTTPField.Name("X-Mode")!: "slow"],
            status: 404, text: nil),
        .init(
            "matchesJsonPath filter", fixture: wiremock, .post, "/jsonpath/filter",
            body: #"{"items": [{"sku": "B-2", "quantity": 5}, {"sku": "A-1", "quantity": 2}]}"#, text: "filter"),
        .init(
            "matchesJsonPath filter refuses", fixture: wiremock, .post, "/jsonpath/filter",
            body: #"{"items": [{"sku": "A-1", "quantity": 1}]}"#, status: 404, text: nil),
        .init(
            "matchesXPath with equalTo", fixture: wiremock, .post, "/xpath",
            body: #"<order><item sku="A-1"><quantity>2</quantity></item></order>"#, text: "xpath"),
        .init(
            "matchesXPath refuses", fixture: wiremock, .post, "/xpath",
            body: #"<order><item sku="A-1"><quantity>3</quantity></item></order>"#, status: 404, text: nil),
        .init(
            "formParameters", fixture: wiremock, .post, "/form", body: "name=Ada+Lovelace&tag=poetry&tag=mathematics",
            text: "form"),
        .init(
            "formParameters refuse", fixture: wiremock, .post, "/form", body: "name=Ada%20Byron&tag=mathematics",
            status: 404, text: nil),
        .init(
            "basicAuthCredentials", fixture: wiremock, .get, "/basic",
            headerFields: [.authorization: "Basic YWRhOmxvdmVsYWNl"], text: "basic auth"),
        .init(
            "basicAuthCredentials refuse a wrong password", fixture: wiremock, .get, "/basic",
            headerFields: [.authorization: "Basic YWRhOmJhYmJhZ2U="], status: 404, text: nil),
        .init("priority: lower number wins", fixture: wiremock, .get, "/priority", text: "priority 1"),
        .init("same priority: the later stub wins", fixture: wiremock, .get, "/recent", text: "newer"),
        .init("status and statusMessage", fixture: wiremock, .get, "/status", status: 418, text: ""),
        .init("body", fixture: wiremock, .get, "/response-headers", text: "headers"),
        .init(
            "jsonBody", fixture: wiremock, .get, "/json-body",
            text: #"{"id":1,"name":"Ada","tags":["a",1.5e3,true,null]}"#),
        .init("base64Body", fixture: wiremock, .get, "/base64", text: "hello"),
        .init("bodyFileName in __files", fixture: wiremock, .get, "/file", text: "Hello from __files\n"),
        .init("bodyFileName in a folder of __files", fixture: wiremock, .get, "/file/nested", text: #"{"id": 7}"#),
        .init(
            "bodyFileName next to the stub file", fixture: wiremock, .get, "/file/next-to-stub",
            text: "Hello from next to the stub\n"),
        .init(
            "scenario", fixture: wiremock,
            [
                .init(method: .get, target: "/todo/items", status: 200, text: "<items><item>Buy milk</item></items>"),
                .init(
                    method: .post, target: "/todo/items", body: "Cancel newspaper subscription", status: 201, text: ""),
                .init(
                    method: .get, target: "/todo/items", status: 200,
                    text: "<items><item>Buy milk</item><item>Cancel newspaper subscription</item></items>"),
                .init(method: .post, target: "/todo/items", body: "Cancel newspaper subscription", status: 404),
            ]),
        .init(
            "sequence: the last response repeats", fixture: "decoy",
            [
                .init(method: .get, target: "/sequence", status: 503, text: "first"),
                .init(method: .get, target: "/sequence", status: 502, text: "second"),
                .init(method: .get, target: "/sequence", status: 200, text: "last, repeated"),
                .init(method: .get, target: "/sequence", status: 200, text: "last, repeated"),
            ]),
        .init(
            "alternating", fixture: "decoy",
            ["even", "odd", "even", "odd"].map { .init(method: .get, target: "/alternating", status: 200, text: $0) }),
        .init(
            "conditional: when holds", fixture: "decoy", .get, "/conditional?debug=true",
            headerFields: [.accept: "application/json"], text: #"{"debug":true}"#),
        .init(
            "conditional: else", fixture: "decoy", .get, "/conditional?debug=true",
            headerFields: [.accept: "text/plain"], status: 400, text: "plain"),
    ]

    @Test(arguments: ServingMode.allCases, cases)
    func stubFileCase(_ serving: ServingMode, _ testCase: StubFileCase) async throws {
        try await testCase.run(in: serving)
    }
}

/// The example `stubs/` folder that `decoy serve` serves, exercised as a client would.
@Suite("Stub files: the example folder")
struct ExampleStubFolderTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    static let cases: [StubFileCase] = [
        .init(
            "list users", fixture: nil, .get, "/users",
            text:
                #"""
                [{"id":1,"name":"Ada Lovelace","email":"ada@example.com"},{"id":2,"name":"Grace \#
                Hopper","email":"grace@example.com"}]
                """#
        ),
        .init("second page is empty", fixture: nil, .get, "/users?page=2", text: "[]"),
        .init(
            "get a user", fixture: nil, .get, "/users/1",
            text: #"{"id":1,"name":"Ada Lovelace","email":"ada@example.com"}"#),
        .init(
            "unknown user", fixture: nil, .get, "/users/904", status: 404,
            text: #"{"error":"not_found","message":"No such user"}"#),
        .init(
            "create a user", fixture: nil, .post, "/users", headerFields: json,
            body: #"{"name": "Alan", "email": "alan@example.com"}"#, status: 201, text: #"{"id":3}"#),
        .init(
            "create a user without an email", fixture: nil, .post, "/users", headerFields: json,
            body: #"{"name": "Alan"}"#, status: 422, text: nil),
        .init("order from a body file", fixture: nil, .get, "/orders/1001", text: nil),
        .init(
            "place an order", fixture: nil, .post, "/orders", body: #"{"quantity": 2, "sku": "A-1", "note": "gift"}"#,
            status: 201, text: #"{"id":1002,"status":"placed"}"#),
        .init(
            "order out of stock", fixture: nil, .post, "/orders", body: #"{"sku": "Z-9", "quantity": 1}"#, status: 422,
            text: nil),
        .init(
            "payments: fail, then succeed", fixture: nil,
            [
                .init(method: .post, target: "/payments", status: 503),
                .init(method: .post, target: "/payments", status: 502),
                .init(method: .post, target: "/payments", status: 201, text: #"{"id":"pay_1","status":"captured"}"#),
                .init(method: .post, target: "/payments", status: 201),
            ]),
        .init(
            "health flaps", fixture: nil,
            [
                .init(method: .get, target: "/health", status: 200, text: "ok"),
                .init(method: .get, target: "/health", status: 503, text: "degraded"),
            ]),
        .init(
            "me with a token", fixture: nil, .get, "/me", headerFields: [.authorization: "Bearer t0k3n"],
            text: #"{"id":1,"name":"Ada Lovelace"}"#),
        .init("me without a token", fixture: nil, .get, "/me", status: 401, text: #"{"error":"unauthorized"}"#),
        .init(
            "cart fills", fixture: nil,
            [
                .init(method: .get, target: "/cart", status: 200, text: #"{"items":[]}"#),
                .init(method: .post, target: "/cart/items", status: 201, text: ""),
                .init(method: .get, target: "/cart", status: 200, text: #"{"items":[{"sku":"A-1","quantity":1}]}"#),
            ]),
    ]

    @Test(arguments: ServingMode.allCases, cases)
    func exampleCase(_ serving: ServingMode, _ testCase: StubFileCase) async throws {
        try await testCase.run(in: serving)
    }
}
