import Decoy
import DecoyClient
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("MockServer")
struct MockServerTests {
    static func started(_ registry: StubRegistry = StubRegistry(), _ configuration: MockServer.Configuration = .init())
        throws -> MockServer
    {
        let server = MockServer(registry: registry, configuration: configuration)
        try server.start()
        return server
    }

    @Test func listensOnLoopbackAtAnEphemeralPortAndStopsIdempotently() throws {
        let server = try Self.started()
        #expect(server.isRunning)
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        server.stop()
        server.stop()
        #expect(!server.isRunning)
        #expect(throws: POSIXError.self) { try RawConnection(port: server.port) }
    }

    @Test func restartsAndManyRunSideBySide() async throws {
        let servers = try (0..<8).map { index in
            let registry = StubRegistry()
            try registry.register(StubResponse(text: "server \(index)"), for: .get("/who"))
            return try Self.started(registry)
        }
        defer {
            for server in servers { server.stop() }
        }
        #expect(Set(servers.map(\.port)).count == 8)
        for (index, server) in servers.enumerated() {
            #expect(
                try await APIClient(baseURL: server.baseURL).send(Resource<String>.get("/who")) == "server \(index)")
        }
        servers[0].stop()
        try servers[0].start()
        #expect(try await APIClient(baseURL: servers[0].baseURL).send(Resource<String>.get("/who")) == "server 0")
    }

    @Test func aTakenPortIsAClearError() throws {
        let first = try Self.started()
        defer { first.stop() }
        let second = MockServer(registry: StubRegistry(), configuration: .init(port: first.port))
        let error = #expect(throws: DecoyError.self) { try second.start() }
        #expect(error?.description == "cannot listen on 127.0.0.1 port \(first.port): is the port in use?")
        #expect(!second.isRunning)
        second.stop()
        #expect(throws: DecoyError.invalidHost("localhost")) {
            try MockServer(registry: StubRegistry(), configuration: .init(host: "localhost")).start()
        }
    }

    /// The daemon lets libmicrohttpd's reference go only once its threads are joined; stopping
    /// from many threads at once, with a connection held, stops it once and returns everywhere.
    @Test func stoppingFromManyThreadsAtOnceStopsOnce() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "late", delay: .fixed(.seconds(30))), for: .get("/late"))
        let server = try Self.started(registry)
        let held = try RawConnection(port: server.port)
        held.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<200 where server.heldConnectionCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(server.heldConnectionCount == 1)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { await offThePool { server.stop() } } }
        }
        #expect(!server.isRunning)
        #expect(await held.isClosedByPeer())
    }

    /// Driven by curl: swift-corelibs-foundation's URLSession refuses IPv6 literal URLs (`-1000`).
    @Test(needsCurl, .enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1)"))
    func servesIPv6LoopbackWhenAsked() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "six"), for: .get("/v"))
        let server = MockServer(registry: registry, configuration: .init(host: "::1"))
        try server.start()
        defer { server.stop() }
        #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")
        #expect(try await curl(["-g", server.baseURL.absoluteString + "/v"]) == "six")
    }

    @Test func keepsConnectionsAliveAndReadsRepeatedHeaders() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "one"), for: .get("/a"))
        try registry.register(StubResponse(text: "two"), for: .get("/b"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /a HTTP/1.1\r\nHost: x\r\nX-Tag: first\r\nX-Tag: second\r\n\r\n")
            let first = await connection.read(until: "one")
            #expect(first.hasPrefix("HTTP/1.1 200 OK"))
            #expect(!first.lowercased().contains("connection: close"))
            connection.send("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.read(until: "two").hasSuffix("two"))
            #expect(
                registry.journal.entries.first?.request.headerFields[values: .init("X-Tag")!] == ["first", "second"])
        }
    }

    /// The server writes a repeated field as the stub has it, one line per value; it is
    /// URLSession that joins them (see the parity suite), as it does for any server.
    @Test func writesRepeatedResponseFieldsOneLineEach() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.init("X-Multi")!: "a", .init("X-Multi")!: "b"], text: "two"),
            for: .get("/multi"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /multi HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = await connection.read(until: "two")
            #expect(reply.contains("\r\nX-Multi: a\r\n") && reply.contains("\r\nX-Multi: b\r\n"), "\(reply)")
        }
    }

    /// A request head larger than the connection's memory is refused by libmicrohttpd itself,
    /// before any stub sees it, and the server goes on serving.
    @Test func aRequestHeadTooLargeForTheConnectionGets431() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "fine"), for: .get("/ok"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /ok HTTP/1.1\r\nHost: x\r\nX-Req: \(String(repeating: "b", count: 40_000))\r\n\r\n")
            let reply = await connection.read()
            #expect(reply.hasPrefix("HTTP/1.1 431 "), "\(reply.prefix(80))")
            #expect(registry.journal.entries.isEmpty)
            #expect(try await APIClient(baseURL: server.baseURL).send(Resource<String>.get("/ok")) == "fine")
        }
    }

    /// Stub files allow 64 KiB of response header fields, but libmicrohttpd writes the head into
    /// the connection's memory (``MockServer/Configuration/headerMemoryLimit``), beside the
    /// request's head, and closes the connection without a word when it does not fit. The engine,
    /// told the room, answers `500` saying so instead, the journal records that `500` as what was
    /// sent, and the server goes on serving.
    @Test(arguments: [
        (40_000, 0, 32 * 1024, "500"), (20_000, 0, 32 * 1024, "200"), (20_000, 14_000, 32 * 1024, "500"),
        (20_000, 8_000, 32 * 1024, "200"), (40_000, 0, 64 * 1024, "200"),
    ])
    func aResponseHeadTooLargeForTheConnectionIsRefusedInWords(
        responseField: Int, requestField: Int, headerMemoryLimit: Int, status: String
    ) async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(headerFields: [.init("X-Big")!: String(repeating: "a", count: responseField)], text: "big"),
            for: .get("/big"))
        try registry.register(StubResponse(text: "fine"), for: .get("/ok"))
        let server = try Self.started(registry, .init(headerMemoryLimit: headerMemoryLimit))
        defer { server.stop() }
        let connection = try RawConnection(port: server.port)
        let requestHead = "X-Req: " + String(repeating: "b", count: requestField) + "\r\n"
        connection.send(
            "GET /big HTTP/1.1\r\nHost: x\r\n\(requestField > 0 ? requestHead : "")Connection: close\r\n\r\n")
        let reply = await connection.read()
        #expect(reply.hasPrefix("HTTP/1.1 \(status) "), "\(reply.prefix(80))")
        let recorded = try registry.journal.entries(matching: .get("/big"))
        #expect(recorded.map { $0.status.map { "\($0.code)" } } == [status])
        if status == "500" {
            #expect(reply.contains("(MockServer.Configuration.headerMemoryLimit, decoy serve's --header-memory-limit)"))
        } else {
            #expect(
                reply.contains("\r\nX-Big: \(String(repeating: "a", count: responseField))\r\n")
                    && reply.hasSuffix("big"))
        }
        #expect(try await APIClient(baseURL: server.baseURL).send(Resource<String>.get("/ok")) == "fine")
    }

    @Test func readsAChunkedUploadWhole() async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { StubResponse(text: "\($0.body.count) bytes: \($0.bodyText)") }, for: .post("/upload"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
            )
            #expect(await connection.read(until: "world").hasSuffix("11 bytes: hello world"))
        }
    }

    @Test func rawQueryAndEncodedPathArriveAsSent() async throws {
        let registry = StubRegistry()
        try registry.register(
            ClosureStub { StubResponse(text: "\($0.path)|\($0.query ?? "")|\($0.queryValues("q"))") },
            for: .get("/people/{name}"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /people/Ada%20L?q=a%26b&q=c+d HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.read(until: "]").hasSuffix(#"/people/Ada L|q=a%26b&q=c+d|["a&b", "c d"]"#))
            #expect(registry.journal.entries.first?.request.target == "/people/Ada%20L?q=a%26b&q=c+d")
        }
    }

    @Test func oversizedBodiesGet413AndTheServerGoesOn() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/upload"))
        try await withMockServer(registry: registry, configuration: .init(maxBodySize: 1_000)) { server in
            let declared = try RawConnection(port: server.port)
            declared.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
            #expect(await declared.read(until: "accepts.").hasPrefix("HTTP/1.1 413"))
            let chunked = try RawConnection(port: server.port)
            let chunk = String(repeating: "x", count: 600)
            chunked.send(
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
            )
            #expect(await chunked.read(until: "accepts.").hasPrefix("HTTP/1.1 413"))
            let client = APIClient(baseURL: server.baseURL)
            try await client.send(
                Resource<Void>(method: .post, path: "/upload", body: .data(Data(count: 999), contentType: nil)))
            #expect(registry.journal.totalCount == 1, "refused bodies never reach the engine")
        }
    }

    /// A body over the limit is answered `413` at once, and what the client still sends of it is
    /// read and dropped before the connection closes: closed with it unread, the socket would reset
    /// the connection, and a client could meet the reset before the `413` (nginx's lingering close).
    @Test func theRestOfABodyTooLargeIsDroppedSoTheClientSeesA413AndAnOrderlyClose() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .created), for: .post("/upload"))
        try await withMockServer(registry: registry, configuration: .init(maxBodySize: 1_000)) { server in
            let body = [UInt8](repeating: UInt8(ascii: "x"), count: 256 * 1024)
            let head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n"
            // The body after the answer: the server has closed by then, unless it drains.
            let late = try RawConnection(port: server.port)
            late.send(head)
            #expect(await late.read(until: "accepts.").hasPrefix("HTTP/1.1 413"))
            // Off the cooperative pool: a send this large blocks until the server reads it.
            await offThePool { late.send(body) }
            #expect(await late.readToEnd().ending == .closed)
            // Head and body at once, as a client sends them.
            let atOnce = try RawConnection(port: server.port)
            await offThePool { atOnce.send(Array(head.utf8) + body) }
            let reply = await atOnce.readToEnd()
            #expect(reply.text.hasPrefix("HTTP/1.1 413"), "\(reply.text)")
            #expect(reply.ending == .closed)
            #expect(registry.journal.totalCount == 0, "refused bodies never reach the engine")
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /x HTTP/9.9\r\n\r\n",
        "GET /x HTTP/1.1\r\nNo colon here\r\n\r\n",
        "\u{1}\u{2}\u{3}\u{FF}\r\n\r\n",
    ])
    func garbageGets400OrACloseAndTheServerGoesOn(_ garbage: String) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "fine"), for: .get("/ok"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port)
            connection.send(garbage)
            let reply = await connection.read()
            #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 400") || reply.hasPrefix("HTTP/1.1 505"), "\(reply)")
            #expect(try await APIClient(baseURL: server.baseURL).send(Resource<String>.get("/ok")) == "fine")
        }
    }

    @Test func aClientThatStopsMidRequestIsTimedOut() async throws {
        try await withMockServer(registry: StubRegistry(), configuration: .init(connectionTimeout: .seconds(1))) {
            server in
            let connection = try RawConnection(port: server.port, receiveTimeout: endlessWait)
            connection.send("POST /slow-client HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly part")
            let start = ContinuousClock.now
            #expect(await connection.isClosedByPeer())
            #expect(ContinuousClock.now - start < endlessWait)
        }
    }

    @Test func connectionsOverTheLimitGet503AndAreClosed() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "fine"), for: .get("/ok"))
        // Held connections must outlive a slow run: none may be closed for idling before the fifth arrives.
        let configuration = MockServer.Configuration(connectionLimit: 4, connectionTimeout: .seconds(600))
        try await withMockServer(registry: registry, configuration: configuration) { server in
            let held = try (0..<4).map { _ in try RawConnection(port: server.port, receiveTimeout: .seconds(2)) }
            for connection in held {
                connection.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = await connection.read(until: "fine")
            }
            let extra = try RawConnection(port: server.port, receiveTimeout: .seconds(2))
            extra.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = await extra.read()
            #expect(reply.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(reply)")
            #expect(reply.lowercased().contains("connection: close"))
            #expect(registry.journal.totalCount == 4)
            // Once a held connection closes, a new one is served again.
            held[0].close()
            var served = false
            for _ in 0..<200 where !served {
                let next = try RawConnection(port: server.port, receiveTimeout: .seconds(2))
                next.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n")
                served = await next.read(until: "fine").hasSuffix("fine")
                if !served { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(served)
            withExtendedLifetime(held) {}
        }
    }

    @Test func stoppingClosesHeldConnectionsAndFreesTheirWaits() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(delay: .fixed(.seconds(600))), for: .get("/slow"))
        try registry.register(StubResponse.fault(.timeout), for: .get("/hang"))
        let server = try Self.started(registry)
        // A session per request: URLSession opens at most 6 connections to one host.
        let requests = (0..<20).map { index in
            Task {
                try await APIClient(baseURL: server.baseURL).send(
                    Resource<Void>.get(index.isMultiple(of: 2) ? "/slow" : "/hang"))
            }
        }
        for _ in 0..<1_000 where server.heldConnectionCount < 20 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(server.heldConnectionCount == 20)
        let start = ContinuousClock.now
        server.stop()
        for request in requests { _ = await request.result }
        #expect(ContinuousClock.now - start < endlessWait)
    }

    @Test(needsCurl) func curlGetsTheSameAnswerAsAnyClient() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(status: .created, headerFields: [.init("X-From")!: "decoy"], json: #"{"ok":true}"#),
            for: .post("/things"))
        try await withMockServer(registry: registry) { server in
            let text = try await curl(["-i", "-X", "POST", "-d", "a=1", server.baseURL.absoluteString + "/things"])
            #expect(text.hasPrefix("HTTP/1.1 201 Created"))
            #expect(text.contains("X-From: decoy"))
            #expect(text.hasSuffix(#"{"ok":true}"#))
            #expect(registry.journal.entries.first?.request.bodyText == "a=1")
        }
    }
}
