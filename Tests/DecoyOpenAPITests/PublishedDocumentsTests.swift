import Decoy
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

@testable import DecoyOpenAPI

/// The real documents in `../shared/openapi-specs` beside the repository (see its SOURCES.md):
/// one valid request per operation, made from the document, answered in-process with a status
/// the operation declares and a body valid against that response's schema.
/// Serialized, one pass over each document, read on a thread of its own and checked an operation
/// at a time: reading, serving and checking a large document is seconds of CPU, and on Linux a test
/// runs on one of Swift's executor threads, as many as there are cores; several documents at once
/// left none for the suites that wait on sockets, which timed out.
@Suite("Published OpenAPI documents", .serialized)
struct PublishedDocumentsTests {
    /// `../shared/openapi-specs` from the repository's root.
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "shared/openapi-specs")

    /// A folder of more documents to try, from `DECOY_MORE_OPENAPI_DOCUMENTS`: those whose licence
    /// keeps them out of the shared folder (PagerDuty's) can be tried locally, never committed.
    static let moreFolder = ProcessInfo.processInfo.environment["DECOY_MORE_OPENAPI_DOCUMENTS"].map {
        URL(filePath: $0, directoryHint: .isDirectory)
    }

    /// The documents' URLs by file name.
    static let urls: [String: URL] = Dictionary(
        ([folder] + (moreFolder.map { [$0] } ?? [])).flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.map { ($0, folder.appending(path: $0)) }
        }
    ) { shared, _ in shared }

    static let documents: [String] = urls.keys.sorted()

    static let documentsAreThere = Testing.ConditionTrait.enabled(
        if: !documents.isEmpty,
        "no documents at ../shared/openapi-specs beside the repository: the published documents are not tried")

    /// The document at `url`, how long it took to read, and a registry serving its examples.
    private static func served(_ url: URL) throws -> (
        spec: OpenAPISpec, loaded: Duration, registry: StubRegistry, mappings: [StubMapping]
    ) {
        let started = ContinuousClock.now
        let spec = try OpenAPISpec(contentsOf: url)
        let loaded = ContinuousClock.now - started
        let registry = StubRegistry()
        return (spec, loaded, registry, try registry.registerExamples(of: spec))
    }

    /// Every operation answers a valid request made for it with a status it declares and a body its
    /// schema allows, and its route, its log line and the journal name it by its path template.
    @Test(documentsAreThere, arguments: documents)
    func everyOperationAnswersAsDeclaredAndIsNamedByItsPathTemplate(_ name: String) async throws {
        let url = try #require(Self.urls[name])
        let (spec, loaded, registry, mappings) = try await offThePool { try Self.served(url) }
        let check = DocumentCheck(spec: spec)
        var failures: [String] = []
        var misnamed: [String] = []
        // FNV-1a over every answer, to compare runs under other hash seeds (SWIFT_DETERMINISTIC_HASHING).
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for (operation, mapping) in zip(spec.operations, mappings) {
            await Task.yield()
            let shown = "\(operation.method) \(operation.path)"
            let line = RouteNamesTests.logLine(mapping.route)
            if mapping.route.description != shown || !line.contains("(\(shown))") {
                misnamed.append("\(shown) is shown as \(mapping.route) and logged as \(line)")
            }
            let answer = try await registry.engine.answer(check.request(for: operation))
            for byte in Data("\(answer.status.code) ".utf8) + answer.body {
                digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            if let failure = check.failure(of: operation, answer: answer) { failures.append(failure) }
            // Another operation may answer a request made for this one (`/users/me` for `/users/{id}`).
            if let route = registry.journal.entries.last?.route, route.identity == mapping.route.identity,
                route.description != shown
            {
                misnamed.append("\(shown) is journaled as \(route)")
            }
        }
        let total = spec.operations.count + spec.refused.count
        print(
            "\(name): \(spec.operations.count - failures.count) of \(total) operations answered with a declared status and a valid body (\(spec.refused.count) refused; loaded in \(loaded); answers \(String(digest, radix: 16)))"
        )
        for refusal in spec.refused { print("  refused: \(refusal)") }
        #expect(failures.isEmpty, "\(name): \(failures.joined(separator: "\n"))")
        #expect(misnamed.isEmpty, "\(name): \(misnamed.prefix(5).joined(separator: "\n"))")
    }
}

/// Makes one valid request for an operation from its document, and checks the answer against it.
struct DocumentCheck {
    let spec: OpenAPISpec
    var document: JSONValue { spec.document }
    var validator: SchemaValidator { SchemaValidator(document: document) }
    var examples: SchemaExample { SchemaExample(validator: validator) }

    /// Why the answer to the operation's request misses the document; `nil` when it fits.
    func failure(of operation: OpenAPIOperation, answer: StubResponse) -> String? {
        let said = String(decoding: answer.body.prefix(300), as: UTF8.self)
        guard let response = response(of: operation, for: answer.status.code) else {
            return "\(operation): \(answer.status.code) is not declared: \(said)"
        }
        let contentType = answer.headerFields[.contentType] ?? ""
        guard OperationReader.isJSON(contentType), !answer.body.isEmpty else { return nil }
        let schema = "\(response)/content/\(contentType.pointerEscaped)/schema"
        guard document.at(schema) != nil else { return nil }
        guard let value = JSONValue(parsing: answer.body) else { return "\(operation): the body is not JSON: \(said)" }
        if let miss = validator.violations(of: value, schemaAt: schema).first {
            return "\(operation): \(miss.schemaPath) at \(miss.instancePath): \(miss.message)"
        }
        return nil
    }

    /// The pointer of the response declared for `status`, references followed.
    private func response(of operation: OpenAPIOperation, for status: Int) -> String? {
        let responses = "\(operation.pointer)/responses"
        guard case .object(let declared)? = document.at(responses) else { return nil }
        let key = ["\(status)", "\(status / 100)XX", "\(status / 100)xx", "default"].first { declared[$0] != nil }
        return key.map { resolve("\(responses)/\($0.pointerEscaped)") }
    }

    private func resolve(_ pointer: String) -> String {
        var pointer = pointer
        var seen: Set<String> = []
        while case .string(let reference)? = document.at(pointer)?["$ref"], seen.insert(reference).inserted {
            pointer = reference
        }
        return pointer
    }

    /// A request the operation's parameters and body allow, values made from their schemas.
    func request(for operation: OpenAPIOperation) -> StubRequest { operation.sampleRequest(examples) }
}
