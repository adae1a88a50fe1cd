import Decoy
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import DecoyOpenAPI

/// Stubs checked against the document they stand for: those made from a document's own examples
/// raise no drift, and each kind of change planted in one is caught, named with the pointer in
/// the stub and the pointer in the document.
@Suite("Stubs checked against an OpenAPI document")
struct StubDriftTests {
    static let spec = """
        openapi: 3.0.3
        info: {title: Pets, version: 1.0.0}
        paths:
          /pets:
            get:
              operationId: listPets
              parameters:
                - {name: status, in: query, required: true, schema: {type: string, enum: [available, sold]}}
                - {name: limit, in: query, schema: {type: integer, maximum: 100}}
                - {name: X-Tenant, in: header, required: true, schema: {type: string}}
              responses:
                '200':
                  description: Pets.
                  headers:
                    X-Total: {required: true, schema: {type: integer}}
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
                      example: [{id: 1, name: Rex}]
          /pets/{id}:
            get:
              operationId: getPet
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200':
                  description: A pet.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Pet'}
                      example: {id: 1, name: Rex}
                '404':
                  description: No such pet.
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties:
                id: {type: integer}
                name: {type: string}
        """

    private static func check(_ stubs: [(Route, any Stub)]) throws -> StubDriftReport {
        let spec = try OpenAPISpec(data: Data(Self.spec.utf8), source: "pets.yaml")
        return StubDriftCheck(specs: [spec]).check(
            stubs.enumerated().map { .init(place: "stub \($0.offset)", route: $0.element.0, stub: $0.element.1) })
    }

    static let pets = Route.get("/pets").query("status", .equalTo("sold")).header(
        HTTPField.Name("X-Tenant")!, .present)
    static let json: HTTPFields = [.contentType: "application/json"]
    static let petsFields: HTTPFields = [.contentType: "application/json", HTTPField.Name("X-Total")!: "1"]

    @Test func stubsAsTheDocumentSaysRaiseNothing() throws {
        let report = try Self.check([
            (Self.pets, StubResponse(headerFields: Self.petsFields, json: #"[{"id": 2, "name": "Tom"}]"#)),
            (.get("/pets/{id}"), StubResponse(headerFields: Self.json, json: #"{"id": 2, "name": "Tom"}"#)),
            (.get("/pets/7"), StubResponse(status: .notFound)),
            (
                Route(method: .get, exactPath: "/pets/8"),
                StubResponse(headerFields: Self.json, json: #"{"id": 8, "name": "A"}"#)
            ),
        ])
        #expect(report.drift.isEmpty, "\(report)")
        #expect(report.uncovered.isEmpty && report.skipped.isEmpty, "\(report)")
        #expect(report.stubs == 4)
    }

    /// Each planted change, with the pointer in the stub and the pointer in the document it must be named by.
    @Test(
        arguments: [
            (
                "an undeclared status", Route.get("/pets/{id}"), StubResponse(status: HTTPResponse.Status(code: 418)),
                "/response/status",
                "pets.yaml#/paths/~1pets~1{id}/get/responses"
            ),
            (
                "a field of the wrong type", Route.get("/pets/{id}"),
                StubResponse(headerFields: StubDriftTests.json, json: #"{"id": "1", "name": "Rex"}"#),
                "/response/jsonBody/id",
                "pets.yaml#/components/schemas/Pet/properties/id/type"
            ),
            (
                "a missing required field", Route.get("/pets/{id}"),
                StubResponse(headerFields: StubDriftTests.json, json: #"{"id": 1}"#), "/response/jsonBody",
                "pets.yaml#/components/schemas/Pet/required"
            ),
            (
                "a path no operation has", Route.get("/pets/{id}/toys"), StubResponse(), "/request/urlPathTemplate",
                "pets.yaml#/paths"
            ),
            (
                "a wrong content type", Route.get("/pets/{id}"),
                StubResponse(headerFields: [.contentType: "text/plain"], text: "Rex"), "/response/headers/Content-Type",
                "pets.yaml#/paths/~1pets~1{id}/get/responses/200/content"
            ),
            (
                "a forbidden query value",
                Route.get("/pets").query("status", .equalTo("lost")).header(
                    HTTPField.Name("X-Tenant")!, .present),
                StubResponse(headerFields: StubDriftTests.petsFields, json: "[]"), "/request/queryParameters/status",
                "pets.yaml#/paths/~1pets/get/parameters/0/schema/enum"
            ),
            (
                "a query value of the wrong type", StubDriftTests.pets.query("limit", .equalTo("ten")),
                StubResponse(headerFields: StubDriftTests.petsFields, json: "[]"), "/request/queryParameters/limit",
                "pets.yaml#/paths/~1pets/get/parameters/1/schema/type"
            ),
            (
                "a path parameter of the wrong type", Route.get("/pets/rex"),
                StubResponse(headerFields: StubDriftTests.json, json: #"{"id": 1, "name": "Rex"}"#),
                "/request/urlPathTemplate",
                "pets.yaml#/paths/~1pets~1{id}/get/parameters/0/schema/type"
            ),
            (
                "a missing required query parameter", Route.get("/pets").header(HTTPField.Name("X-Tenant")!, .present),
                StubResponse(headerFields: StubDriftTests.petsFields, json: "[]"), "/request/queryParameters/status",
                "pets.yaml#/paths/~1pets/get/parameters/0/required"
            ),
            (
                "a missing required header parameter", Route.get("/pets").query("status", .equalTo("sold")),
                StubResponse(headerFields: StubDriftTests.petsFields, json: "[]"), "/request/headers/X-Tenant",
                "pets.yaml#/paths/~1pets/get/parameters/2/required"
            ),
            (
                "a missing required response header", StubDriftTests.pets,
                StubResponse(headerFields: StubDriftTests.json, json: "[]"),
                "/response/headers/X-Total", "pets.yaml#/paths/~1pets/get/responses/200/headers/X-Total/required"
            ),
            (
                "a method the path has not", Route.delete("/pets/{id}"), StubResponse(), "/request/method",
                "pets.yaml#/paths/~1pets~1{id}"
            ),
        ] as [(String, Route, StubResponse, String, String)])
    func aPlantedChangeIsCaughtAndNamedWithBothPointers(
        _ change: String, _ route: Route, _ stub: StubResponse, _ stubPointer: String, _ documentPointer: String
    ) throws {
        let report = try Self.check([(route, stub)])
        #expect(report.drift.count == 1, "\(change): \(report)")
        let drift = try #require(report.drift.first)
        #expect(drift.stub == "stub 0")
        #expect(drift.stubPointer == stubPointer, "\(change): \(drift)")
        #expect(drift.documentPointer == documentPointer, "\(change): \(drift)")
    }

    /// WireMock's `url` field: an exact path and the whole target, its query read from it.
    @Test func aQueryValueWrittenInTheURLIsChecked() throws {
        let route = Route(method: .get, exactPath: "/pets").target(.equalTo("/pets?status=lost")).header(
            HTTPField.Name("X-Tenant")!, .present)
        let report = try Self.check([(route, StubResponse(headerFields: Self.petsFields, json: "[]"))])
        #expect(report.drift.map(\.stubPointer) == ["/request/url"], "\(report)")
        #expect(report.drift.first?.documentPointer == "pets.yaml#/paths/~1pets/get/parameters/0/schema/enum")
    }

    /// With several documents, each stub is checked against the one whose paths cover it.
    @Test func eachStubIsCheckedAgainstTheDocumentThatCoversIt() throws {
        let orders = try OpenAPISpec(
            data: Data(
                """
                openapi: 3.1.0
                info: {title: Orders, version: 1.0.0}
                paths:
                  /orders:
                    get:
                      operationId: listOrders
                      responses:
                        '200': {description: Orders., content: {application/json: {schema: {type: array}}}}
                """.utf8), source: "orders.yaml")
        let pets = try OpenAPISpec(data: Data(Self.spec.utf8), source: "pets.yaml")
        let report = StubDriftCheck(specs: [pets, orders]).check([
            .init(place: "orders", route: .get("/orders"), stub: StubResponse(headerFields: Self.json, json: "{}")),
            .init(place: "pet", route: .get("/pets/1"), stub: StubResponse(status: .notFound)),
        ])
        #expect(report.drift.map(\.stub) == ["orders"], "\(report)")
        #expect(report.drift.first?.operation == "listOrders (GET /orders)")
        #expect(
            report.drift.first?.documentPointer
                == "orders.yaml#/paths/~1orders/get/responses/200/content/application~1json/schema/type")
    }

    @Test func aDriftNamesTheOperationAndWhatDiffers() throws {
        let report = try Self.check([
            (.get("/pets/{id}"), StubResponse(headerFields: Self.json, json: #"{"id": "1", "name": "Rex"}"#))
        ])
        #expect(
            report.drift.map(\.description) == [
                #"stub 0: getPet (GET /pets/{id}): /response/jsonBody/id: expected integer, got "1" "#
                    + "(pets.yaml#/components/schemas/Pet/properties/id/type)"
            ])
    }

    @Test func aStubOfAnotherAPIIsNotCoveredRatherThanDrift() throws {
        let report = try Self.check([
            (.get("/health"), StubResponse(text: "ok")),
            (.any("/pets"), StubResponse()),
            (Route(method: .get, pathPattern: "/pets/[0-9]+"), StubResponse()),
            (.get("/pets/**"), StubResponse()),
        ])
        #expect(report.drift.isEmpty, "\(report)")
        #expect(report.uncovered.map(\.stub) == ["stub 0", "stub 1", "stub 2", "stub 3"])
        #expect(!report.hasDrift() && report.hasDrift(strict: true))
    }

    @Test func aTemplatedAnswerIsRenderedForASampleRequestOfItsOperation() throws {
        let fits = try TemplateStub(
            StubResponse(headerFields: Self.json, json: #"{"id": {{request.path.[1]}}, "name": "Rex"}"#))
        let drifts = try TemplateStub(
            StubResponse(headerFields: Self.json, json: #"{"id": "{{request.path.[1]}}", "name": "Rex"}"#))
        let report = try Self.check([(.get("/pets/{id}"), fits), (.get("/pets/{id}"), drifts)])
        #expect(report.drift.map(\.stub) == ["stub 1"], "\(report)")
        #expect(report.drift.first?.stubPointer == "/response/jsonBody/id")
    }

    @Test func anAnswerChosenPerRequestIsSkippedWithANote() throws {
        let report = try Self.check([
            (.get("/pets/{id}"), SequenceStub(first: [StubResponse()], then: StubResponse())),
            (.get("/pets/{id}"), StubResponse.fault(.connectionReset)),
        ])
        #expect(report.drift.isEmpty)
        #expect(report.skipped.map(\.stub) == ["stub 0", "stub 1"], "\(report)")
        #expect(report.skipped.allSatisfy { $0.operation == "getPet (GET /pets/{id})" })
    }
}

/// The published documents of `../shared/openapi-specs`: stubs made from each document's own
/// examples raise no drift, and changes planted in them are caught. Serialized and off the pool,
/// as ``PublishedDocumentsTests`` reads them, for the same reason.
@Suite("Stubs of the published OpenAPI documents", .serialized)
struct PublishedDocumentsDriftTests {
    /// An example stub, with the operation and response it was made from.
    struct ExampleStub {
        let checked: StubDriftCheck.CheckedStub
        let operation: OpenAPIOperation
        /// The pointer of the body's schema, for a JSON body that has one.
        let schema: String?
        let response: StubResponse
    }

    /// A stub for every example of every response of every operation that passes its schema, on
    /// the operation's route with its required parameters named, as the examples are served.
    static func exampleStubs(of spec: OpenAPISpec) -> [ExampleStub] {
        spec.operations.flatMap { operation in
            var route = operation.route
            for parameter in operation.parameters where parameter.required {
                switch parameter.location {
                case .query: route = route.query(parameter.name, .present)
                case .header: route = HTTPField.Name(parameter.name).map { route.header($0, .present) } ?? route
                default: break
                }
            }
            return operation.responses.flatMap { response -> [ExampleStub] in
                var fields = HTTPFields()
                for header in response.requiredHeaders { fields[HTTPField.Name(header.name)!] = "1" }
                let status = HTTPResponse.Status(code: code(of: response.status, in: operation))
                let place = "\(operation) \(status.code)"
                guard !response.content.isEmpty else {
                    let stub = StubResponse(status: status, headerFields: fields)
                    return [
                        .init(
                            checked: .init(place: place, route: route, stub: stub), operation: operation, schema: nil,
                            response: stub)
                    ]
                }
                return response.content.flatMap { content in
                    content.examples.filter(\.passes).map { example in
                        var fields = fields
                        fields[.contentType] = content.mediaType
                        let stub = StubResponse(status: status, headerFields: fields, body: Data(example.body))
                        let schema = "\(response.pointer)/content/\(content.mediaType.pointerEscaped)/schema"
                        return .init(
                            checked: .init(
                                place: "\(place) \(content.mediaType) \(example.name ?? "from the schema")",
                                route: route, stub: stub),
                            operation: operation,
                            schema: OperationReader.isJSON(content.mediaType) && spec.document.at(schema) != nil
                                ? schema : nil,
                            response: stub)
                    }
                }
            }
        }
    }

    /// The status a stub gives for a response: its code, the first of its range, or for
    /// `default` a server error no other response of the operation declares.
    private static func code(of status: OpenAPIOperation.Response.Status, in operation: OpenAPIOperation) -> Int {
        switch status {
        case .code(let code): return code
        case .range(let first): return first * 100
        case .default:
            return [500, 502, 503, 504, 599, 418].first { code in
                !operation.responses.contains { $0.status == .code(code) || $0.status == .range(code / 100) }
            } ?? 599
        }
    }

    // One document at a time: each is seconds of CPU, and all at once starved the server tests
    // running beside them past their connections' idle timeout.
    @Test(.serialized, PublishedDocumentsTests.documentsAreThere, arguments: PublishedDocumentsTests.documents)
    func stubsMadeFromTheDocumentsOwnExamplesRaiseNoDrift(_ name: String) async throws {
        let url = try #require(PublishedDocumentsTests.urls[name])
        let (stubs, report) = try await offThePool {
            let spec = try OpenAPISpec(contentsOf: url)
            let stubs = Self.exampleStubs(of: spec).map(\.checked)
            return (stubs.count, StubDriftCheck(specs: [spec]).check(stubs))
        }
        print(
            "\(name): \(stubs) stubs from the examples, \(report.drift.count) drift, "
                + "\(report.uncovered.count) not covered"
        )
        #expect(stubs > 0)
        #expect(report.drift.isEmpty, "\(name): \(report.drift.prefix(10).map(\.description).joined(separator: "\n"))")
        #expect(
            report.uncovered.isEmpty,
            "\(name): \(report.uncovered.prefix(10).map(\.description).joined(separator: "\n"))")
    }

    /// Changes planted in the example stubs of each document, each where the document allows it:
    /// every one is caught, on its stub alone, named with both pointers.
    @Test(.serialized, PublishedDocumentsTests.documentsAreThere, arguments: PublishedDocumentsTests.documents)
    func plantedChangesAreCaught(_ name: String) async throws {
        let url = try #require(PublishedDocumentsTests.urls[name])
        let (planted, report) = try await offThePool {
            let spec = try OpenAPISpec(contentsOf: url)
            let planted = Self.plantedChanges(in: spec)
            return (planted.map(\.place), StubDriftCheck(specs: [spec]).check(planted))
        }
        print("\(name): planted \(planted.joined(separator: "; "))")
        #expect(planted.count >= 4, "\(name): \(planted)")
        for place in planted {
            let caught = report.drift.filter { $0.stub == place }
            #expect(!caught.isEmpty, "\(name): not caught: \(place)")
            #expect(
                caught.allSatisfy { $0.stubPointer != nil && $0.documentPointer != nil },
                "\(name): \(caught.map(\.description))")
        }
        #expect(Set(report.drift.map(\.stub)).isSubset(of: planted), "\(name): \(report)")
    }

    /// The changes that fit the document, each a stub named by the change.
    static func plantedChanges(in spec: OpenAPISpec) -> [StubDriftCheck.CheckedStub] {
        let stubs = exampleStubs(of: spec)
        let validator = SchemaValidator(document: spec.document)
        var planted: [StubDriftCheck.CheckedStub] = []
        func plant(_ change: String, _ stub: ExampleStub, route: Route? = nil, _ response: StubResponse) {
            planted.append(
                .init(place: "\(change): \(stub.checked.place)", route: route ?? stub.checked.route, stub: response))
        }
        let json = stubs.filter { $0.schema != nil && JSONValue(parsing: $0.response.body) != nil }
        if let stub = stubs.first {
            let first =
                PathTemplate(stub.operation.path).segments.first.map { parts -> String in
                    if case .literal(let text)? = StubDriftCheck.whole(parts) { text } else { "x" }
                } ?? "x"
            let route = Route(method: .get, exactPath: "/\(first)/decoy-no-such/path/of/nine/segments/at/all")
            plant("a path no operation has", stub, route: route, stub.response)
        }
        if let stub = json.first {
            var fields = stub.response.headerFields
            fields[.contentType] = "text/x-decoy"
            plant(
                "a wrong content type", stub,
                StubResponse(status: stub.response.status, headerFields: fields, body: stub.response.body))
        }
        if let stub = json.first(where: { validator.types(ofSchemaAt: $0.schema!) == ["object"] }) {
            plant(
                "a body of the wrong type", stub,
                StubResponse(status: stub.response.status, headerFields: stub.response.headerFields, json: "[1]"))
        }
        // A required property of the schema itself, present in the example.
        for stub in json {
            guard case .object(var members)? = JSONValue(parsing: stub.response.body) else { continue }
            let present = members
            let required = (validator.parts(of: [stub.schema!]) ?? []).flatMap { part -> [String] in
                guard case .array(let names)? = part.keywords["required"] else { return [] }
                return names.compactMap { if case .string(let name) = $0, present[name] != nil { name } else { nil } }
            }.first
            guard let required else { continue }
            members[required] = nil
            plant(
                "a missing required field \(required)", stub,
                StubResponse(
                    status: stub.response.status, headerFields: stub.response.headerFields,
                    body: Data(compactJSON(JSONValue.object(members)))))
            break
        }
        if let stub = stubs.first(where: { stub in
            !stub.operation.responses.contains { [.code(418), .range(4), .default].contains($0.status) }
        }) {
            plant("an undeclared status", stub, StubResponse(status: HTTPResponse.Status(code: 418)))
        }
        for stub in stubs {
            guard
                let parameter = stub.operation.parameters.first(where: { parameter in
                    guard parameter.location == .query, let schema = parameter.schema else { return false }
                    let types = validator.types(ofSchemaAt: schema)
                    return types.contains("integer") || types.contains("boolean")
                })
            else { continue }
            plant(
                "a forbidden query value", stub,
                route: stub.checked.route.query(parameter.name, .equalTo("decoy-forbidden")),
                stub.response)
            break
        }
        return planted
    }
}
