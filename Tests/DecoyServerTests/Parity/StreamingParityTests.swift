import Clocks
import Decoy
import DecoyClient
import DecoyServerTesting
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// A paced body reaches the streaming client piece by piece, on the engine's clock, alike through
/// `StubTransport`, `StubURLProtocol` and the server.
@Suite("Parity: streamed bodies")
struct StreamingParityTests {
    static let body = String(repeating: "0123456789", count: 40)

    /// A registry on a test clock whose `GET path` answers ``body`` in four pieces, a second apart.
    static func pacedBody(at path: String) throws -> (TestClock<Duration>, StubRegistry) {
        let clock = TestClock()
        let registry = StubRegistry(clock: clock)
        try registry.register(
            StubResponse(text: body).throttled(.chunks(count: 4, over: .seconds(4))), for: .get(path))
        return (clock, registry)
    }

    /// The head arrives at once; each piece only when the test clock passes its due time, as a
    /// chunk of its own.
    @Test(arguments: ServingMode.allCases)
    func aPacedBodyArrivesPieceByPieceOnTheTestClock(_ mode: ServingMode) async throws {
        let (clock, registry) = try Self.pacedBody(at: "/paced")
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let (head, body) = try await client.bytes(for: Resource<Void>.get("/paced"))
            #expect(head.status == .ok)
            #expect(head.headerFields[.contentLength] == "400")
            var chunks = body.makeAsyncIterator()
            for piece in 1...4 {
                await waitUntilSleeping(clock, limit: endlessWait)
                await clock.advance(by: .seconds(1))
                let chunk = try #require(try await chunks.next(), "piece \(piece)")
                #expect(chunk == Data(Self.body.utf8.dropFirst((piece - 1) * 100).prefix(100)), "piece \(piece)")
            }
            #expect(try await chunks.next() == nil)
        }
    }

    /// A download's progress counts each piece as the test clock lets it through, against the
    /// length the head announces, and the file holds the body.
    @Test(arguments: ServingMode.allCases)
    func downloadProgressAdvancesOnTheTestClock(_ mode: ServingMode) async throws {
        let (clock, registry) = try Self.pacedBody(at: "/export")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-download-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let download = client.download(Resource<Void>.get("/export"), to: file)
            var progress = download.progress.makeAsyncIterator()
            #expect(await progress.next() == TransferProgress(completed: 0, expected: 400))
            for piece in 1...4 {
                await waitUntilSleeping(clock, limit: endlessWait)
                await clock.advance(by: .seconds(1))
                #expect(await progress.next() == TransferProgress(completed: Int64(piece * 100), expected: 400))
            }
            #expect(await progress.next() == nil)
            let head = try await download.value
            #expect(head.status == .ok)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.body)
    }

    /// A download cancelled after its first piece fails as cancelled and leaves no file, whether
    /// the transfer is cancelled or the task that awaits its value.
    @Test(arguments: ServingMode.allCases, [true, false])
    func aCancelledDownloadFailsAndLeavesNoFile(_ mode: ServingMode, cancellingTheWaiter: Bool) async throws {
        let (clock, registry) = try Self.pacedBody(at: "/export")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-download-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let download = client.download(Resource<Void>.get("/export"), to: file)
            let waiter = Task { try await download.value }
            var progress = download.progress.makeAsyncIterator()
            #expect(await progress.next() == TransferProgress(completed: 0, expected: 400))
            await waitUntilSleeping(clock, limit: endlessWait)
            await clock.advance(by: .seconds(1))
            #expect(await progress.next() == TransferProgress(completed: 100, expected: 400))
            if cancellingTheWaiter { waiter.cancel() } else { download.cancel() }
            #expect(await progress.next() == nil)
            let error = await #expect(throws: APIError.self) { try await waiter.value }
            guard case .transport(let failure, _) = error else {
                Issue.record("expected a transport failure, got \(String(describing: error))"); return
            }
            #expect(failure == .cancelled)
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A body reader stopped early throws rather than ending as if the body were whole: after
    /// `cancel()`, and in a task cancelled while it collects.
    @Test(arguments: ServingMode.allCases)
    func aBodyStoppedEarlyFailsItsReader(_ mode: ServingMode) async throws {
        let (clock, registry) = try Self.pacedBody(at: "/paced")
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let (_, body) = try await client.bytes(for: Resource<Void>.get("/paced"))
            var chunks = body.makeAsyncIterator()
            await waitUntilSleeping(clock, limit: endlessWait)
            await clock.advance(by: .seconds(1))
            #expect(try await chunks.next()?.count == 100)
            body.cancel()
            await #expect(throws: CancellationError.self) { try await chunks.next() }

            let (_, collected) = try await client.bytes(for: Resource<Void>.get("/paced"))
            let collecting = Task { try await collected.collected() }
            await waitUntilSleeping(clock, limit: endlessWait)
            collecting.cancel()
            await #expect(throws: CancellationError.self) { try await collecting.value }
        }
    }

    /// An upload from a file sends the file's bytes, reports them sent, and decodes the answer.
    @Test(arguments: ServingMode.allCases)
    func uploadFromAFileSendsItsBytes(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { StubResponse(status: .created, json: #"{"received": \#($0.body.count)}"#) },
            for: .put("/files/report"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-upload-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        let contents = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try contents.write(to: file)
        struct Receipt: Decodable, Sendable { let received: Int }
        let receipt = try await withStubbedClient(mode, registry: registry) { client, _ in
            let upload = client.upload(Resource<Receipt>.put("/files/report"), fromFile: file, contentType: "text/csv")
            var reported: [TransferProgress] = []
            for await progress in upload.progress { reported.append(progress) }
            #expect(reported.first == TransferProgress(completed: 0, expected: 200_000))
            #expect(reported.last == TransferProgress(completed: 200_000, expected: 200_000))
            return try await upload.value
        }
        #expect(receipt.status == .created)
        #expect(receipt.value.received == 200_000)
        let entry = try #require(registry.journal.entries.last)
        #expect(entry.request.body == contents)
        #expect(entry.request.headerFields[.contentType] == "text/csv")
    }

    /// An unacceptable status fails a streamed request as any request, with the body read whole,
    /// and a download leaves no file.
    @Test(arguments: ServingMode.allCases)
    func anUnacceptableStatusFailsTheStream(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .notFound, text: "no such export"), for: .get("/export"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decoy-download-\(UUID())")
        try await withStubbedClient(mode, registry: registry) { client, _ in
            let error = await #expect(throws: APIError.self) {
                try await client.download(Resource<Void>.get("/export"), to: file).value
            }
            guard case .unacceptableStatus(let failure) = error else {
                Issue.record("expected an unacceptable status, got \(String(describing: error))"); return
            }
            #expect(failure.status == .notFound)
            #expect(String(decoding: failure.body, as: UTF8.self) == "no such export")
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    /// A retried status is retried before the body is read, and the stream is the last answer's.
    @Test(arguments: ServingMode.allCases)
    func aStreamedRequestIsRetriedBeforeItsBody(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            SequenceStub(
                first: [StubResponse(status: .serviceUnavailable, text: "busy")], then: StubResponse(text: "ok")),
            for: .get("/flaky"))
        let configuration = APIClient.Configuration(
            retry: RetryPolicy(maxAttempts: 2, wait: .zero, multiplier: 1, jitter: 0))
        let received = try await withStubbedClient(mode, registry: registry, configuration: configuration) {
            client, _ in
            let (_, body) = try await client.bytes(for: Resource<Void>.get("/flaky"))
            return try await body.collected()
        }
        #expect(String(decoding: received, as: UTF8.self) == "ok")
        #expect(registry.journal.entries.count == 2)
    }

    /// The client follows a redirect of a streamed request as of any other, the redirect's own
    /// body dropped unread, and keeps the cookie it sets.
    @Test(arguments: ServingMode.allCases)
    func aStreamedRequestFollowsRedirects(_ mode: ServingMode) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(
                status: .found, headerFields: [.location: "/landed", .setCookie: "seen=1; Path=/"], text: "moved"),
            for: .get("/from"))
        try registry.register(
            ClosureStub { StubResponse(text: "landed with \($0.headerFields[.cookie] ?? "no cookie")") },
            for: .get("/landed"))
        let received = try await withStubbedClient(mode, registry: registry) { client, _ in
            let (head, body) = try await client.bytes(for: Resource<Void>.get("/from"))
            #expect(head.status == .ok)
            return try await body.collected()
        }
        #expect(String(decoding: received, as: UTF8.self) == "landed with seen=1")
        #expect(registry.journal.entries.map(\.request.target) == ["/from", "/landed"])
    }
}
