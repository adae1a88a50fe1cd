// swift-format-ignore-file
// Examples of docs/client.md (bodies that stream, event streams), verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

private struct Receipt: Decodable, Sendable, Equatable { let id: Int }
private struct Score: Decodable, Sendable, Equatable { let home: Int; let away: Int }

@Suite("Bodies that stream and event streams, as documented")
struct ClientStreamingExamples {
    let apiURL = URL(string: "https://api.example.com")!
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-streaming-examples-\(UUID())")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Streams, downloads and uploads in every serving, as the docs show them.
    @Test(arguments: ServingMode.allCases)
    func bodiesThatStream(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: String(repeating: "log line\n", count: 1_000)), for: .get("/logs/today"))
        try registry.register(StubResponse(text: "id,total\n1,20\n"), for: .any("/exports/2025.csv"))
        try registry.register(StubResponse(status: .created, json: #"{"id": 7}"#), for: .post("/videos"))
        try registry.register(StubResponse(status: .created, json: #"{"id": 8}"#), for: .post("/albums/7/photos"))
        let destination = folder.appendingPathComponent("2025.csv")
        let movie = folder.appendingPathComponent("movie.mp4")
        let photo = folder.appendingPathComponent("beach.jpg")
        try Data(repeating: 1, count: 50_000).write(to: movie)
        try Data(repeating: 2, count: 5_000).write(to: photo)
        var fractions: [Double?] = []
        func show(_ fraction: Double?) { fractions.append(fraction) }
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let (head, body) = try await client.bytes(for: Resource<Void>.get("/logs/today"))
            var received = 0
            for try await chunk in body { received += chunk.count }
            #expect(head.status == .ok)
            #expect(received == 9_000)

            let (downloaded, receipt) = try await transfers(client, to: destination, movie: movie, show: show)
            #expect(downloaded.status == .ok)
            #expect(try String(contentsOf: destination, encoding: .utf8) == "id,total\n1,20\n")
            #expect(receipt == Receipt(id: 7))
            #expect(fractions.first == 0 && fractions.last == 1)
            let (posted, small) = try await forms(client, photo: photo)
            #expect(posted.value == Receipt(id: 8))
            #expect(small.method == .post)

            let exported = try await client.response(for: Resource<Void>.head("/exports/2025.csv"))
            let size = exported.headerFields[.contentLength]
            #expect(size == "14")
        }
        #expect(registry.journal.entries.first { $0.request.target == "/videos" }?.request.body.count == 50_000)
        let photoRequest = try #require(registry.journal.entries.first { $0.request.target == "/albums/7/photos" })
        #expect(photoRequest.request.headerFields[.contentType]?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(photoRequest.request.bodyText.contains(#"name="photo"; filename="beach.jpg""#))
    }

    private func transfers(_ client: APIClient, to destination: URL, movie: URL, show: (Double?) -> Void) async throws -> (HTTPResponse, Receipt) {
        let download = client.download(Resource<Void>.get("/exports/2025.csv"), to: destination)
        for await progress in download.progress {
            print("\(progress.completed) of \(progress.expected ?? -1) bytes")
        }
        let head = try await download.value

        let upload = client.upload(Resource<Receipt>.post("/videos"), fromFile: movie, contentType: "video/mp4")
        for await progress in upload.progress { show(progress.fraction) }
        let receipt = try await upload.value.value
        return (head, receipt)
    }

    private func forms(_ client: APIClient, photo: URL) async throws -> (Response<Receipt>, Resource<Receipt>) {
        var form = MultipartForm()
        form.append("Holiday", named: "title")
        form.append(contentsOf: photo, named: "photo", filename: "beach.jpg", contentType: "image/jpeg")
        let posted = try await client.upload(Resource<Receipt>.post("/albums/7/photos"), form: form).value

        let small = Resource<Receipt>(method: .post, path: "/notes", body: .data(try form.encoded(), contentType: form.contentType))
        return (posted, small)
    }

    @Test func progressOnATestClock() async throws {
        let export = Data(repeating: 3, count: 400)
        let destination = folder.appendingPathComponent("paced.csv")
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(StubResponse(body: export).throttled(.chunks(count: 4, over: .seconds(4))), for: .get("/exports/2025.csv"))
        let client = APIClient(baseURL: apiURL, transport: StubTransport(registry))

        let download = client.download(Resource<Void>.get("/exports/2025.csv"), to: destination)
        var progress = download.progress.makeAsyncIterator()
        #expect(await progress.next() == TransferProgress(completed: 0, expected: 400))
        await waitUntilSleeping(clock)
        await clock.advance(by: .seconds(1))
        #expect(await progress.next() == TransferProgress(completed: 100, expected: 400))
        download.cancel()
    }

    /// The docs' loop, over a stream that a `204` ends after its first connection.
    private func loop() async throws {
        let registry = StubRegistry()
        let client = APIClient(baseURL: apiURL, transport: StubTransport(registry))
        try registry.register(SequenceStub(first: [StubResponse(headerFields: [.contentType: "text/event-stream"], text: "data: {\"home\": 2, \"away\": 2}\n\nretry: 0\n\n")], then: StubResponse(status: .noContent)), for: .get("/matches/7/score"))
        for try await event in client.events(for: Resource<Score>.get("/matches/7/score")) {
            print(event.type, event.value.home, event.value.away)
        }
        #expect(registry.journal.totalCount == 2)
    }

    @Test func eventStreams() async throws {
        let registry = StubRegistry()
        let client = APIClient(baseURL: apiURL, transport: StubTransport(registry))
        let feed = "id: 1\nevent: goal\ndata: {\"home\": 1, \"away\": 0}\n\nretry: 500\n\n"
        try registry.register(StubResponse(headerFields: [.contentType: "text/event-stream"], text: feed), for: .get("/matches/7/score"))

        var events = client.events(for: Resource<Score>.get("/matches/7/score")).makeAsyncIterator()
        let goal = try await events.next()
        #expect(goal?.id == "1" && goal?.type == "goal" && goal?.value == Score(home: 1, away: 0))

        try await loop()
    }
}
