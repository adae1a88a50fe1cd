import Decoy
import DecoyClient
import DecoyServer
import DecoyTestSupport
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS beside HTTP: one engine, admin API and journal over both ports, the certificate faults
/// and broken handshakes a client meets, and hostile clients on the TLS port. One test at a time:
/// each starts servers and curl processes, and all at once they starved the timing tests of the
/// parallel run on a two-core machine.
@Suite(.serialized) struct HTTPSTests {
    /// A folder of its own for the authority and certificate files a test writes.
    private let folder = FileManager.default.temporaryDirectory.appending(path: "decoy-https-\(UUID().uuidString)")

    private func server(
        _ registry: StubRegistry, fault: TLSFault? = nil, identity: MockServer.Configuration.TLS.Identity = .generated,
        servesHTTP: Bool = true
    ) throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.tls = .init(port: 0, identity: identity, fault: fault)
        configuration.servesHTTP = servesHTTP
        let server = MockServer(registry: registry, configuration: configuration)
        try server.start()
        return server
    }

    /// Writes the server's authority where curl's --cacert reads it.
    private func authorityFile(of server: MockServer) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "ca.pem")
        try Data(try #require(server.certificateAuthorityPEM).utf8).write(to: file)
        return file.path
    }

    private static func helloRegistry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "hello"), for: .get("/hello"))
        return registry
    }

    @Test(needsCurl) func curlWithTheAuthorityFetchesAStubOverHTTPSAndTheSameJournalSeesBothPorts() async throws {
        let registry = try Self.helloRegistry()
        let server = try server(registry)
        defer { server.stop() }
        let authority = try authorityFile(of: server)
        for host in ["127.0.0.1", "localhost"] {
            let url = "https://\(host):\(server.httpsPort)/hello"
            let run = try await curlRun(["--cacert", authority, url])
            #expect(run.output == "hello", "\(run.errors)")
        }
        #expect(try await curl([server.baseURL.absoluteString + "/hello"]) == "hello")
        // The admin API answers over HTTPS too, from the same journal.
        let requests = try await curl(["--cacert", authority, server.httpsBaseURL.absoluteString + "/__admin/requests"])
        #expect(requests.contains("\"https://127.0.0.1:\(server.httpsPort)/hello\"") == true)
        #expect(registry.journal.entries.count == 3)
    }

    @Test(needsCurl) func tls12AndTls13AreBothServed() async throws {
        let server = try server(try Self.helloRegistry())
        defer { server.stop() }
        let authority = try authorityFile(of: server)
        for version in [["--tlsv1.2", "--tls-max", "1.2"], ["--tlsv1.3"]] {
            let run = try await curlRun(version + ["--cacert", authority, "\(server.httpsBaseURL)/hello"])
            #expect(run.output == "hello", "\(version): \(run.errors)")
        }
    }

    @Test func urlSessionKeepsValidatingAndRefusesAnAuthorityItWasNotGiven() async throws {
        let server = try server(try Self.helloRegistry())
        defer { server.stop() }
        let client = APIClient(baseURL: server.httpsBaseURL)
        do throws(APIError) {
            _ = try await client.response(for: Resource<Void>.get("/hello"))
            Issue.record("expected the certificate to be refused")
        } catch .transport(let failure, let underlying) {
            #expect(failure == .serverCertificateUntrusted, "\(underlying)")
        } catch {
            Issue.record("expected a transport failure, got \(error)")
        }
    }

    @Test(needsCurl) func httpsAloneServesNoHTTPPort() async throws {
        let server = try server(try Self.helloRegistry(), servesHTTP: false)
        defer { server.stop() }
        #expect(server.port == 0)
        let authority = try authorityFile(of: server)
        #expect(try await curl(["--cacert", authority, "\(server.httpsBaseURL)/hello"]) == "hello")
    }

    /// What curl (libcurl over OpenSSL, as under Linux's URLSession) reports for each fault, given
    /// the authority: the message the in-process servings imitate, and the category it names.
    @Test(
        needsCurl,
        arguments: [
            (TLSFault.expiredCertificate, TransportFailure.serverCertificateExpired),
            (.wrongHost, .serverCertificateUntrusted),
            (.unknownAuthority, .serverCertificateUntrusted),
            (.handshakeReset, .tlsFailed),
        ])
    func eachFaultFailsTheHandshakeAsItsNameSays(fault: TLSFault, category: TransportFailure) async throws {
        let server = try server(try Self.helloRegistry(), fault: fault)
        defer { server.stop() }
        let authority = try authorityFile(of: server)
        let run = try await curlRun(["--cacert", authority, "\(server.httpsBaseURL)/hello"])
        #expect(run.status != 0)
        #expect(run.output.isEmpty)
        #if canImport(FoundationNetworking)
            let message = try #require(fault.urlError.userInfo[NSLocalizedDescriptionKey] as? String)
            #expect(run.errors.contains(message), "curl said: \(run.errors)")
        #endif
        #expect(TransportFailure(classifying: fault.urlError) == category)
        #expect(registry(of: server).journal.entries.isEmpty)
        // The HTTP port serves on.
        #expect(try await curl([server.baseURL.absoluteString + "/hello"]) == "hello")
    }

    @Test func aResetHandshakeReachesURLSessionAsATLSFailure() async throws {
        let server = try server(try Self.helloRegistry(), fault: .handshakeReset)
        defer { server.stop() }
        let error = await transportError(fetching: server.httpsBaseURL.appending(path: "hello"))
        #expect(error.map(TransportFailure.init(classifying:)) == .tlsFailed, "\(String(describing: error))")
    }

    @Test(needsCurl) func aStalledHandshakeTimesOut() async throws {
        let server = try server(try Self.helloRegistry(), fault: .handshakeStall)
        defer { server.stop() }
        let error = await transportError(fetching: server.httpsBaseURL.appending(path: "hello"), timeout: 1)
        #expect(error.map(TransportFailure.init(classifying:)) == .timedOut, "\(String(describing: error))")
        #expect(TransportFailure(classifying: TLSFault.handshakeStall.urlError) == .timedOut)
        #expect(try await curl([server.baseURL.absoluteString + "/hello"]) == "hello")
    }

    /// Faults below HTTP write nothing past GnuTLS, which would reach the client as a broken TLS
    /// record: a reset is a reset, and the others a close, a bad response as over HTTP.
    @Test(
        needsCurl,
        arguments: [
            (Fault.connectionReset, "Connection reset by peer"),
            (.malformedResponse, "Empty reply from server"),
            (.randomDataThenClose, "Empty reply from server"),
            (.emptyResponse, "Empty reply from server"),
        ])
    func socketFaultsOverHTTPSAreTheFaultsNotBrokenRecords(fault: Fault, said: String) async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse.fault(fault), for: .get("/broken"))
        let server = try server(registry)
        defer { server.stop() }
        let authority = try authorityFile(of: server)
        let run = try await curlRun(["--cacert", authority, "\(server.httpsBaseURL)/broken"])
        #expect(run.errors.contains(said), "curl said: \(run.errors)")
        #expect(!run.errors.contains("SSL"), "curl said: \(run.errors)")
    }

    private func transportError(fetching url: URL, timeout: TimeInterval = 5) async -> (any Error)? {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: url)
            return nil
        } catch {
            return error
        }
    }

    private func registry(of server: MockServer) -> StubRegistry {
        server.engine.provider as! StubRegistry
    }

    /// The in-process servings throw, for an `https` request, the error URLSession gives for the
    /// server's fault, and serve `http` as the server's HTTP port does.
    @Test(arguments: TLSFault.allCases)
    func inProcessServingsImitateEachFault(fault: TLSFault) async throws {
        let registry = try Self.helloRegistry()
        registry.tlsFault = fault
        let transport = StubTransport(registry)
        let https = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/hello")
        do {
            _ = try await transport.send(https, body: nil)
            Issue.record("expected \(fault)")
        } catch let error as URLError {
            #expect(error == fault.urlError)
        }
        let session = URLSession.stubbed(by: registry)
        defer { session.finishTasksAndInvalidate() }
        do {
            _ = try await session.data(from: URL(string: "https://api.example.com/hello")!)
            Issue.record("expected \(fault)")
        } catch let error as URLError {
            #expect(error.code == fault.urlError.code)
            #expect(
                TransportFailure(classifying: error) == TransportFailure(classifying: fault.urlError))
        }
        let (body, _) = try await session.data(from: URL(string: "http://api.example.com/hello")!)
        #expect(String(decoding: body, as: UTF8.self) == "hello")
        #expect(registry.journal.entries.count == 1)
    }

    // MARK: Certificate files

    @Test(needsCurl) func givenCertificateFilesAreServed() async throws {
        let first = try server(try Self.helloRegistry())
        let authority = try authorityFile(of: first)
        first.stop()
        let key = folder.appending(path: "key.pem").path
        let certificate = folder.appending(path: "cert.pem").path
        try #require(
            await shell(
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                key, "-out", certificate, "-subj", "/CN=localhost", "-days", "1", "-addext",
                "subjectAltName=IP:127.0.0.1"),
            "openssl made no certificate")
        let server = try server(try Self.helloRegistry(), identity: .files(certificate: certificate, key: key))
        defer { server.stop() }
        #expect(server.certificateAuthorityPEM == nil)
        #expect(try await curl(["--cacert", certificate, "\(server.httpsBaseURL)/hello"]) == "hello")
        // Not the authority of another server.
        #expect(try await curlRun(["--cacert", authority, "\(server.httpsBaseURL)/hello"]).status == 60)
    }

    @Test func aMissingOrNonPEMFileIsAStartUpErrorNamingIt() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let missing = folder.appending(path: "missing.pem").path
        let text = folder.appending(path: "text.pem").path
        try Data("not a certificate\n".utf8).write(to: URL(filePath: text))
        for (certificate, key, named) in [(missing, text, missing), (text, text, text)] {
            var configuration = MockServer.Configuration()
            configuration.tls = .init(certificateFile: certificate, keyFile: key)
            let server = MockServer(registry: StubRegistry(), configuration: configuration)
            #expect(throws: DecoyError.self) { try server.start() }
            do { try server.start() } catch { #expect(error.description.hasPrefix(named + ": ")) }
            #expect(!server.isRunning)
        }
    }

    private func shell(_ arguments: String...) async -> Bool {
        await offThePool { (try? ProgramRun("/usr/bin/env", arguments))?.status == 0 }
    }

    // MARK: Hostile clients

    @Test(needsCurl) func cleartextAndTruncatedHandshakesAreClosedAndHTTPServesOn() async throws {
        let server = try server(try Self.helloRegistry())
        defer { server.stop() }
        let cleartext = try RawConnection(port: server.httpsPort, receiveTimeout: .seconds(5))
        cleartext.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await !cleartext.read().contains("hello"))
        // A TLS record header that promises a ClientHello of 512 bytes, then a few of them.
        let truncated = try RawConnection(port: server.httpsPort, receiveTimeout: .seconds(5))
        truncated.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
        truncated.close()
        #expect(try await curl([server.baseURL.absoluteString + "/hello"]) == "hello")
        let authority = try authorityFile(of: server)
        #expect(try await curl(["--cacert", authority, "\(server.httpsBaseURL)/hello"]) == "hello")
    }

    @Test(needsCurl) func aSlowHandshakeIsCutOffAtTheConnectionTimeout() async throws {
        var configuration = MockServer.Configuration(connectionTimeout: .seconds(1))
        configuration.tls = .init()
        let server = MockServer(registry: try Self.helloRegistry(), configuration: configuration)
        try server.start()
        defer { server.stop() }
        let slow = try RawConnection(port: server.httpsPort, receiveTimeout: .seconds(10))
        let started = ContinuousClock.now
        // The start of a ClientHello, then nothing more.
        slow.send([0x16, 0x03, 0x01])
        #expect(await slow.isClosedByPeer())
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(10), "\(elapsed)")
        #expect(try await curl([server.baseURL.absoluteString + "/hello"]) == "hello")
    }
}
