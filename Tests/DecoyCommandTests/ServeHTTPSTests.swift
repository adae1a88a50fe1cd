import Decoy
import DecoyTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `decoy serve --https-port` as a process of its own, so that a thousand connections at once
/// hold none of the test process's file descriptors; one test at a time, as `HTTPSTests`.
@Suite("decoy serve over HTTPS", .serialized)
struct ServeHTTPSTests {
    private let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-https-\(UUID().uuidString)")

    private func serve(_ arguments: [String]) async throws -> ServedProcess {
        try FileManager.default.createDirectory(
            at: folder.appending(path: "mappings"), withIntermediateDirectories: true)
        try Data(#"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"body": "hello"}}"#.utf8)
            .write(to: folder.appending(path: "mappings/hello.json"))
        return try await ServedProcess.start(arguments: ["serve", folder.path, "--log", "none"] + arguments)
    }

    /// A thousand handshakes at once: a thousand connections each send a real ClientHello, the
    /// server answers every one, and the clients stall there, held open, while twenty whole
    /// handshakes fetch the stub; then the HTTP port still serves. Python's `ssl` is the client,
    /// checking the certificate against the authority. Bounded: no client does a thousand key
    /// agreements, so the test costs the machine about a second.
    @Test(needsPython) func aThousandHandshakesAtOnceAreServedOrClosed() async throws {
        let authority = folder.appending(path: "ca.pem").path
        let server = try await serve(["--port", "0", "--https-port", "0", "--tls-ca-out", authority])
        defer { server.terminate() }
        let port = try #require(server.httpsBaseURL.flatMap(URL.init(string:))?.port)
        let answered = try await python(Self.hostileClients, arguments: [String(port), authority])
        #expect(answered == "1000 of 1000 hellos answered, 20 of 20 fetches answered 200")
        let (body, _) = try await URLSession(configuration: .ephemeral).data(
            from: URL(string: server.baseURL + "/hello")!)
        #expect(String(decoding: body, as: UTF8.self) == "hello")
    }

    @Test(needsPython) func httpsAloneWritesTheAuthorityAndServesNoHTTP() async throws {
        let authority = folder.appending(path: "ca.pem").path
        let server = try await serve(["--https-port", "0", "--tls-ca-out", authority])
        defer { server.terminate() }
        #expect(server.baseURL.hasPrefix("https://"))
        #expect(try String(contentsOfFile: authority, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        let port = try #require(URL(string: server.baseURL)?.port)
        let answered = try await fetchOverHTTPS(port: port, authority: authority, paths: ["/hello"])
        #expect(answered == ["200 hello"])
        // Where the dashboard is comes after where it serves; it named the unserved HTTP port 0.
        _ = try await server.stop(with: SIGTERM)
        let said = await offThePool { [program = server.program, seen = server.startOutput] in
            var said = seen
            while case let data = program.nextOutput(), !data.isEmpty { said += String(decoding: data, as: UTF8.self) }
            return said
        }
        #expect(said.contains("The dashboard is at \(server.baseURL)/__admin/dashboard\n"), "\(said)")
    }

    @Test func aCertificateFileThatIsNotPEMStopsTheStartNamingIt() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "cert.pem").path
        try Data("not PEM".utf8).write(to: URL(filePath: file))
        await #expect(throws: (any Error).self) {
            try await serve(["--https-port", "0", "--tls-cert", file, "--tls-key", file])
        }
    }

    private static let hostileClients = """
        import http.client, socket, ssl, sys
        port, authority, count = int(sys.argv[1]), sys.argv[2], 1000
        context = ssl.create_default_context(cafile=authority)
        held = []
        for _ in range(count):
            incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
            tls = context.wrap_bio(incoming, outgoing, server_hostname="127.0.0.1")
            try:
                tls.do_handshake()
            except ssl.SSLWantReadError:
                pass
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(outgoing.read())
            held.append(connection)
        hellos = 0
        for connection in held:
            try:
                hellos += connection.recv(1) == bytes([0x16])
            except OSError:
                pass
        fetched = 0
        for _ in range(20):
            connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=10)
            connection.request("GET", "/hello")
            response = connection.getresponse()
            fetched += response.status == 200 and response.read() == b"hello"
            connection.close()
        for connection in held:
            connection.close()
        print(f"{hellos} of {count} hellos answered, {fetched} of 20 fetches answered 200")
        """
}

/// Fetches `paths` over HTTPS from 127.0.0.1:`port` with Python's `ssl`, which checks the
/// certificate against `authority` (Linux's URLSession can be given no authority); a line per
/// path, its status and body, or `nil` when the machine has no Python 3.
func fetchOverHTTPS(port: Int, authority: String, paths: [String]) async throws -> [String] {
    try await python(httpsRequests, arguments: [String(port), authority] + paths)
        .split(separator: "\n").map(String.init)
}

private let httpsRequests = """
    import http.client, ssl, sys
    context = ssl.create_default_context(cafile=sys.argv[2])
    connection = http.client.HTTPSConnection("127.0.0.1", int(sys.argv[1]), context=context, timeout=10)
    for path in sys.argv[3:]:
        connection.request("GET", path)
        response = connection.getresponse()
        print(response.status, response.read().decode())
    """

/// The trait of a test that drives Python 3: without it the test is skipped, and says why.
let needsPython = ConditionTrait.enabled(
    if: (try? ProgramRun("/usr/bin/env", ["python3", "--version"]))?.status == 0, "python3 is not installed")

/// Runs Python 3 and returns what it printed, trimmed.
func python(_ script: String, arguments: [String]) async throws -> String {
    try await offThePool {
        try ProgramRun("/usr/bin/env", ["python3", "-c", script] + arguments).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
