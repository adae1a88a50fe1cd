import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite("Streamed bodies: interceptors, logging, forms, HEAD, responses(for:)")
struct StreamingTests {
    static let base = URL(string: "https://api.test")!

    /// Interceptors adapt a streamed request as any other; one that answers without the transport
    /// has its body streamed as one chunk.
    @Test func interceptorsAdaptAndMayAnswerAStreamedRequest() async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { StubResponse(text: $0.headerFields[.authorization] ?? "none") }, for: .get("/me"))
        let mocks = StubRegistry()
        try mocks.register(StubResponse(text: "mocked"), for: .get("/flags"))
        let client = APIClient(
            baseURL: Self.base,
            configuration: .init(interceptors: [
                mocks.interceptor,
                RequestAdapter { request, _ in request.headerFields[.authorization] = "Bearer t" },
            ]), transport: StubTransport(registry))
        let (_, me) = try await client.bytes(for: Resource<Void>.get("/me"))
        #expect(String(decoding: try await me.collected(), as: UTF8.self) == "Bearer t")
        let (_, flags) = try await client.bytes(for: Resource<Void>.get("/flags"))
        var chunks: [Data] = []
        for try await chunk in flags { chunks.append(chunk) }
        #expect(chunks == [Data("mocked".utf8)])
        #expect(registry.journal.entries.map(\.request.target) == ["/me"])
    }

    /// The log shows a streamed exchange's request and head, with secrets masked, and not its body.
    @Test func aStreamedExchangeIsLoggedWithoutItsBody() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "secret-body"), for: .get("/report"))
        let log = LogCapture()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let client = APIClient(
            baseURL: Self.base, configuration: .init(headerFields: [.authorization: "Bearer t0k3n"], logger: logger),
            transport: StubTransport(registry))
        let (_, body) = try await client.bytes(for: Resource<Void>.get("/report"))
        _ = try await body.collected()
        #expect(log.text.contains("→ GET /report"))
        #expect(log.text.contains("Authorization: <redacted>"))
        #expect(log.text.contains("← 200 GET /report"))
        #expect(!log.text.contains("t0k3n"))
        #expect(!log.text.contains("secret-body"))
    }

    /// A form's parts: fields, bytes and a file, each with its disposition and content type,
    /// quotes and line breaks in names percent-encoded, between lines of the boundary.
    @Test func aMultipartFormEncodesEveryPart() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("from a file".utf8).write(to: file)
        var form = MultipartForm(boundary: "B")
        form.append("Ada", named: "name")
        form.append(#"{"a":1}"#, named: "meta", contentType: "application/json")
        form.append(Data([0, 1]), named: "raw", filename: "a\"b\r\n.bin")
        form.append(contentsOf: file, named: "notes", contentType: "text/plain")
        let expected =
            "--B\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"raw\"; filename=\"a%22b%0D%0A.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{0}\u{1}\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"\(file.lastPathComponent)\"\r\n"
            + "Content-Type: text/plain\r\n\r\nfrom a file\r\n--B--\r\n"
        #expect(String(decoding: try form.encoded(), as: UTF8.self) == expected)
        #expect(form.contentType == "multipart/form-data; boundary=B")
    }

    /// A form uploaded from its temporary file arrives as the same bytes, with its content type,
    /// and the temporary file is gone after.
    @Test func aFormUploadSendsTheEncodedForm() async throws {
        let registry = StubRegistry()
        // The form's files while it goes up: its own among them, and perhaps other tests' beside it.
        let duringUpload = Mutex<Set<String>>([])
        try registry.register(
            ClosureStub { _ in
                duringUpload.withLock { $0 = Self.formFiles() }
                return StubResponse(status: .created)
            }, for: .post("/albums/7/photos"))
        let client = APIClient(baseURL: Self.base, transport: StubTransport(registry))
        var form = MultipartForm(boundary: "B")
        form.append("Holiday", named: "title")
        form.append(Data(repeating: 7, count: 1_000), named: "photo", filename: "beach.jpg", contentType: "image/jpeg")
        let upload = client.upload(Resource<Void>.post("/albums/7/photos"), form: form)
        var last: TransferProgress?
        for await progress in upload.progress { last = progress }
        #expect(try await upload.value.status == .created)
        let entry = try #require(registry.journal.entries.last)
        #expect(entry.request.body == (try form.encoded()))
        #expect(entry.request.headerFields[.contentType] == "multipart/form-data; boundary=B")
        #expect(
            last
                == TransferProgress(
                    completed: Int64(entry.request.body.count), expected: Int64(entry.request.body.count)))
        // Its own file is gone once the upload is done; other tests' may come and go meanwhile.
        let during = duringUpload.withLock { $0 }
        #expect(!during.isEmpty, "the form goes up from a file")
        #expect(!during.subtracting(Self.formFiles()).isEmpty, "the form's file outlived its upload")
    }

    /// The names of the temporary files forms go up from.
    private static func formFiles() -> Set<String> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("decoy-form-") })
    }

    /// `.head` sends `HEAD` and gets the head, the length of the body it withholds announced.
    @Test func anInProcessUploadReportsItsProgressPieceByPiece() async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { StubResponse(status: .created, text: "\($0.body.count)") }, for: .put("/files/report"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-upload-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(repeating: 7, count: 200_000).write(to: file)
        let client = APIClient(baseURL: Self.base, transport: StubTransport(registry))
        let upload = client.upload(Resource<String>.put("/files/report"), fromFile: file)
        var reported: [Int64] = []
        for await progress in upload.progress { reported.append(progress.completed) }
        #expect(try await upload.value.value == "200000")
        #expect(reported == [0, 65_536, 131_072, 196_608, 200_000], "each 64 KiB piece as it is read")
    }

    @Test func headGetsTheHeadOnly() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "0123456789"), for: .any("/file"))
        let client = APIClient(baseURL: Self.base, transport: StubTransport(registry))
        let response = try await client.response(for: Resource<Void>.head("/file"))
        #expect(response.body.isEmpty)
        #expect(response.headerFields[.contentLength] == "10")
        #expect(registry.journal.entries.last?.request.method == .head)
    }

    struct Profile: Request {
        var resource: Resource<[String: String]> { .get("/profile") }
        func finalize(raw: [String: String]) throws -> String { raw["name"] ?? "?" }
        func postProcess(result: String) async -> String { result.uppercased() }
    }

    struct Status: Request {
        var resource: Resource<[String: String]> { .get("https://status.test/status") }
    }

    /// `responses(for:)` serves `Request` types as it serves resources, another host's too: under
    /// `cacheThenNetwork`, the cached value first, then the network's, each finished as `send` does.
    @Test func responsesServeRequestTypes() async throws {
        let registry = StubRegistry()
        try registry.register(
            AlternatingStub([StubResponse(json: #"{"name": "ada"}"#), StubResponse(json: #"{"name": "grace"}"#)]),
            for: .get("/profile"))
        try registry.register(StubResponse(json: #"{"state": "up"}"#), for: .get("/status"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(cache: .memory(), cachePolicy: .cacheThenNetwork),
            transport: StubTransport(registry))
        var first: [String] = []
        for try await response in client.responses(for: Profile()) { first.append(response.value) }
        #expect(first == ["ADA"])
        var second: [(String, ResponseSource)] = []
        for try await response in client.responses(for: Profile()) { second.append((response.value, response.source)) }
        #expect(second.map(\.0) == ["ADA", "GRACE"])
        #expect(second.map(\.1) == [.cache, .network])
        var states: [String] = []
        for try await response in client.responses(for: Status()) { states.append(response.value["state"] ?? "") }
        #expect(states == ["up"])
    }

    /// A transport whose bodies end quietly after `sent` of the bytes its head announces, as a
    /// connection closed early can look to a transport that does not count.
    struct ShortTransport: Transport {
        let announced: Int
        let sent: String
        var extraFields: HTTPFields = [:]

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            let (head, body) = try await stream(request, body: nil)
            return (head, try await body.collected())
        }

        func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
            var head = HTTPResponse(status: .ok, headerFields: extraFields)
            head.headerFields[.contentLength] = String(announced)
            return (head, ResponseBody(Data(sent.utf8)))
        }
    }

    /// A body that ends short of its `Content-Length` fails its reader, and a download of it
    /// leaves no file; a body of the whole length, or one a transport may have decoded, does not.
    @Test func aBodyShortOfItsLengthFails() async throws {
        let short = APIClient(baseURL: Self.base, transport: ShortTransport(announced: 10, sent: "12345"))
        let (_, body) = try await short.bytes(for: Resource<Void>.get("/file"))
        let error = await #expect(throws: URLError.self) { try await body.collected() }
        #expect(error?.code == .networkConnectionLost)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-short-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let failure = await #expect(throws: APIError.self) {
            try await short.download(Resource<Void>.get("/file"), to: file).value
        }
        guard case .transport(.connectionLost, _) = failure else {
            Issue.record("expected a lost connection, got \(String(describing: failure))"); return
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))

        let whole = APIClient(baseURL: Self.base, transport: ShortTransport(announced: 5, sent: "12345"))
        #expect(try await whole.bytes(for: Resource<Void>.get("/file")).1.collected() == Data("12345".utf8))
        let decoded = APIClient(
            baseURL: Self.base,
            transport: ShortTransport(announced: 10, sent: "12345", extraFields: [.contentEncoding: "gzip"]))
        #expect(try await decoded.bytes(for: Resource<Void>.get("/file")).1.collected() == Data("12345".utf8))
    }
}
