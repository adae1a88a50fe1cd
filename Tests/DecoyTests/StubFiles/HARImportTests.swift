import Decoy
import DecoyClient
import DecoyStubFiles
import Foundation
import HTTPTypes
import Testing

/// Real HAR files from eleven tools (Fixtures/har/SOURCES.md says which and what each brings):
/// every entry imported replays with its status and body.
@Suite("HAR import")
struct HARImportTests {
    static let corpus = Bundle.module.url(forResource: "Fixtures/har", withExtension: nil)!

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
            .filter { $0.hasSuffix(".har") }.sorted()
    }

    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "decoy-har-\(UUID().uuidString)")
    }

    /// What the HAR file says of each entry: the request to send and the answer expected.
    struct Recorded {
        let request: HTTPRequest
        let body: Data?
        let status: Int
        /// `nil` when HTTP sends none (`304`, `204`) or the tool kept none.
        let responseBody: Data?
    }

    static func recorded(_ file: String, withHost: Bool) throws -> [Recorded] {
        var data = try Data(contentsOf: corpus.appending(path: file))
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data = data.dropFirst(3) }
        let log = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["log"] as? [String: Any])
        var recorded: [Recorded] = []
        for case let entry as [String: Any] in log["entries"] as? [Any] ?? [] {
            let request = try #require(entry["request"] as? [String: Any])
            let response = try #require(entry["response"] as? [String: Any])
            let status = (response["status"] as? NSNumber)?.intValue ?? 0
            guard status != 0 else { continue }
            let url = try #require((request["url"] as? String).flatMap { URLComponents(string: $0) })
            let method = try #require((request["method"] as? String).flatMap { HTTPRequest.Method($0) })
            let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
            var sent = HTTPRequest(
                method: method, scheme: "http", authority: "decoy.test",
                path: url.percentEncodedQuery.map { "\(path)?\($0)" } ?? path)
            if withHost {
                sent.headerFields[HTTPField.Name("Host")!] = url.port.map { "\(url.host!):\($0)" } ?? url.host
            }
            let content = response["content"] as? [String: Any]
            var expected = (content?["text"] as? String).map { text in
                (content?["encoding"] as? String)?.lowercased() == "base64"
                    ? Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data() : Data(text.utf8)
            }
            if status == 304 || status == 204 { expected = nil }
            recorded.append(
                Recorded(
                    request: sent, body: HARDocument.requestBody(request["postData"]), status: status,
                    responseBody: expected))
        }
        return recorded
    }

    @Test(arguments: files)
    func everyEntryReplaysWithItsStatusAndBody(_ file: String) async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try HARImport().write(file: Self.corpus.appending(path: file), to: folder)
        #expect(report.problems.isEmpty, "\(report.problems)")
        let registry = StubRegistry()
        #expect(registry.check(folder: folder).isValid, "\(registry.check(folder: folder))")
        try registry.load(folder: folder, strict: true)
        let hosts = Set(
            try Self.recorded(file, withHost: true).compactMap { $0.request.headerFields[HTTPField.Name("Host")!] })
        let transport = StubTransport(registry)
        for (number, entry) in try Self.recorded(file, withHost: hosts.count > 1).enumerated() {
            let (response, body) = try await transport.send(entry.request, body: entry.body)
            let name = "\(file) entry \(number + 1): \(entry.request.method) \(entry.request.path ?? "")"
            #expect(response.status.code == entry.status, "\(name)")
            if let expected = entry.responseBody {
                if !expected.isEmpty,
                    let json = try? JSONSerialization.jsonObject(with: expected, options: .fragmentsAllowed)
                {
                    // Compared as JSON, with the secrets the import hides hidden.
                    let got = try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed) as? NSObject
                    #expect(got == LogRedaction().redacting(json: json) as? NSObject, "\(name)")
                } else {
                    #expect(body == expected, "\(name)")
                }
            }
        }
    }
}

/// What an import keeps, how it names hosts, and what it says of what it cannot read.
@Suite("HAR import: filters, hosts and problems")
struct HARImportOptionsTests {
    static func file(_ name: String) -> URL { HARImportTests.corpus.appending(path: name) }

    static func withFolder(_ body: (URL) throws -> Void) rethrows {
        let folder = HARImportTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    static func mapping(_ file: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    @Test func aRepeatedRequestIsOneSequence() throws {
        try Self.withFolder { folder in
            let report = try HARImport().write(file: Self.file("chrome-request-order.har"), to: folder)
            #expect(report.imported == 2)
            #expect(report.written.map(\.lastPathComponent) == ["get-resource.json"])
            let mapping = try Self.mapping(try #require(report.written.first))
            #expect(mapping["mode"] as? String == "sequence")
            #expect((mapping["responses"] as? [Any])?.count == 2)
        }
    }

    @Test func filtersKeepWhatTheyName() throws {
        try Self.withFolder { folder in
            var importer = HARImport()
            importer.resourceTypes = ["document"]
            let documents = try importer.write(file: Self.file("chrome-reqres-xhr.har"), to: folder)
            #expect(documents.imported == 0 && documents.skipped.count == 2)
            importer.resourceTypes = ["xhr"]
            importer.pathPrefix = "/api/users"
            let users = try importer.write(file: Self.file("chrome-reqres-xhr.har"), to: folder)
            #expect(users.written.map(\.lastPathComponent) == ["patch-api-users-2.json"])
            importer = HARImport()
            importer.hosts = ["s3-us-west-2.amazonaws.com"]
            let s3 = try importer.write(file: Self.file("firefox-mitmproxy-org.har"), to: folder)
            #expect(s3.imported == 1)
        }
    }

    @Test func severalHostsGetAHostMatcherOrAFolderEach() throws {
        try Self.withFolder { folder in
            let matched = try HARImport().write(file: Self.file("chrome-har-browsertime.har"), to: folder)
            let hosts = try matched.written.compactMap { file in
                ((try Self.mapping(file)["request"] as? [String: Any])?["headers"] as? [String: Any])?["Host"]
            }
            #expect(hosts.count == matched.written.count)
        }
        try Self.withFolder { folder in
            var importer = HARImport()
            importer.hostStubs = .folders
            let report = try importer.write(file: Self.file("playwright-redirect.har"), to: folder)
            #expect(
                Set(report.written.map { $0.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent })
                    == ["theverge.com", "www.theverge.com"])
            #expect(
                try report.written.allSatisfy {
                    ((try Self.mapping($0)["request"] as? [String: Any])?["headers"]) == nil
                })
        }
        try Self.withFolder { folder in
            // One host: no matcher, so the stubs answer whichever host a client names.
            let report = try HARImport().write(file: Self.file("chrome-request-order.har"), to: folder)
            #expect(
                (try Self.mapping(try #require(report.written.first))["request"] as? [String: Any])?["headers"] == nil)
        }
    }

    @Test func aBadEntryIsNamedAndTheOthersImport() throws {
        let har = """
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "http://api.test/a"}},
              {"request": {"method": "GET", "url": "http://api.test/b"}, "response": {"status": 200,
               "content": {"mimeType": "text/plain", "text": "b"}}},
              {"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "http://api.test/c"}, "response": {"status": 0}}
            ]}}
            """
        try Self.withFolder { folder in
            let report = try HARImport().write(Data(har.utf8), named: "bad.har", to: folder)
            #expect(
                report.problems == [
                    "bad.har, entry 1 (GET http://api.test/a): has no response",
                    "bad.har, entry 3 (GET /relative): has no absolute URL",
                ])
            #expect(
                report.skipped == ["entry 4 (GET http://api.test/c): no response (status 0), as for a failed request"])
            #expect(report.written.map(\.lastPathComponent) == ["get-b.json"])
        }
    }

    @Test func aFileThatIsNoHARIsRefusedWhole() throws {
        Self.withFolder { folder in
            #expect(
                throws: DecoyError.invalidStubFiles([
                    StubFileDiagnostic(file: "x.har", message: "is not JSON, so not a HAR file")
                ])
            ) {
                try HARImport().write(Data("<html>".utf8), named: "x.har", to: folder)
            }
            #expect(
                throws: DecoyError.invalidStubFiles([
                    StubFileDiagnostic(file: "x.har", message: "is not a HAR file: it has no log.entries")
                ])
            ) {
                try HARImport().write(Data(#"{"mappings": []}"#.utf8), named: "x.har", to: folder)
            }
        }
    }
}
