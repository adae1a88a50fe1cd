import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Logging
import Testing

@Suite("Request pipeline: interceptors, retry, logging, failures")
struct PipelineTests {
    static let base = URL(string: "https://api.test")!

    @Test func interceptorsRunInOrderAndMayAdaptTheRequest() async throws {
        let recorder = try Recorder()
        let order = Mutex<[String]>([])
        let client = APIClient(
            baseURL: Self.base,
            configuration: .init(interceptors: [
                RequestAdapter { request, _ in
                    order.withLock { $0.append("first") }
                    request.headerFields[.authorization] = "Bearer fresh"
                },
                RequestAdapter { request, body in
                    order.withLock { $0.append("second") }
                    request.headerFields[.init("X-Seen-Auth")!] = request.headerFields[.authorization]
                    body = Data("replaced".utf8)
                },
            ]), transport: StubTransport(recorder.registry))
        try await client.send(Resource<Void>.post("/things", body: ["a": 1]))
        #expect(order.withLock { $0 } == ["first", "second"])
        #expect(recorder.request?.headerFields[.init("X-Seen-Auth")!] == "Bearer fresh")
        #expect(recorder.request?.bodyText == "replaced")
    }

    @Test func interceptorMayReplaceTheRequest() async throws {
        let recorder = try Recorder()
        struct Rerouting: Interceptor {
            func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data) {
                var moved = request
                moved.path = "/v2" + (request.path ?? "/")
                moved.method = .put
                return try await next(moved, body)
            }
        }
        try await APIClient(
            baseURL: Self.base, configuration: .init(interceptors: [Rerouting()]),
            transport: StubTransport(recorder.registry)
        )
        .send(Resource<Void>.get("/thing"))
        #expect(recorder.request?.method == .put)
        #expect(recorder.request?.target == "/v2/thing")
    }

    @Test func stubInterceptorAnswersOneEndpointAndPassesTheRest() async throws {
        let live = try Recorder(answer: StubResponse(text: "live"))
        let mocks = StubRegistry()
        try mocks.register(StubResponse(json: #"{"beta": true}"#), for: .get("/config/flags"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(interceptors: [mocks.interceptor]),
            transport: StubTransport(live.registry))
        #expect(try await client.send(Resource<[String: Bool]>.get("/config/flags")) == ["beta": true])
        #expect(try await client.send(Resource<String>.get("/users")) == "live")
        #expect(mocks.journal.totalCount == 1)
        #expect(live.registry.journal.entries.map(\.request.target) == ["/users"])
    }

    @Test func retriesFailedAttemptsUntilTheSequenceSucceeds() async throws {
        let registry = StubRegistry()
        try registry.register(
            SequenceStub(
                first: [StubResponse.fault(.connectionReset), StubResponse(status: .serviceUnavailable)],
                then: StubResponse(text: "finally")
            ), for: .get("/flaky"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(retry: Self.immediateRetry(attempts: 3)),
            transport: StubTransport(registry))
        #expect(try await client.send(Resource<String>.get("/flaky")) == "finally")
        #expect(registry.journal.totalCount == 3)
    }

    @Test func givesUpAfterMaxAttemptsWithTheLastError() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .serviceUnavailable), for: .get("/down"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(retry: Self.immediateRetry(attempts: 4)),
            transport: StubTransport(registry))
        let error = await #expect(throws: APIError.self) { try await client.send(Resource<Void>.get("/down")) }
        guard case .unacceptableStatus(let failure) = error else { Issue.record("expected a status failure"); return }
        #expect(failure.status == .serviceUnavailable)
        #expect(registry.journal.totalCount == 4)
    }

    @Test func doesNotRetryWhatThePolicyExcludes() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .serviceUnavailable), for: .any("/x"))
        try registry.register(StubResponse(status: .notFound), for: .get("/missing"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(retry: Self.immediateRetry(attempts: 3)),
            transport: StubTransport(registry))
        _ = try? await client.send(Resource<Void>.post("/x"))
        #expect(registry.journal.totalCount == 1, "POST is not idempotent")
        _ = try? await client.send(Resource<Void>.get("/missing"))
        #expect(registry.journal.totalCount == 2, "404 is not retryable")
        _ = try? await client.send(Resource<Void>.get("/x").retry(RetryPolicy(maxAttempts: 1)))
        #expect(registry.journal.totalCount == 3, "the resource turned retries off")
    }

    @Test func backoffGrowsAndIsCappedAndJittered() {
        let policy = RetryPolicy(
            wait: .milliseconds(100), multiplier: 2, maximumWait: .milliseconds(500), jitter: 0.5)
        #expect(policy.wait(beforeRetry: 1, unitRandom: 0) == .milliseconds(100))
        #expect(policy.wait(beforeRetry: 3, unitRandom: 0) == .milliseconds(400))
        #expect(policy.wait(beforeRetry: 5, unitRandom: 0) == .milliseconds(500))
        #expect(policy.wait(beforeRetry: 3, unitRandom: 1) == .milliseconds(200))
        let steady = RetryPolicy(wait: .seconds(30), multiplier: 1, jitter: 0)
        #expect(steady.wait(beforeRetry: 4, unitRandom: 0) == .seconds(30), "a wait past the maximum is waited in full")
    }

    @Test func logsRequestsAndResponsesWithSecretsRedacted() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(
                headerFields: [.setCookie: "session=s3cr3t"],
                json: #"{"token": "abc", "user": {"name": "Ada", "password": "pw"}}"#), for: .post("/login"))
        let log = LogCapture()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let client = APIClient(
            baseURL: Self.base,
            configuration: .init(
                headerFields: [.authorization: "Bearer t0k3n"],
                queryItems: [URLQueryItem(name: "api_key", value: "k3y")], logger: logger
            ), transport: StubTransport(registry))
        try await client.send(
            Resource<Void>.post("/login", body: ["password": "hunter2", "login": "ada"]).unredacted("login"))
        let text = log.text
        #expect(text.contains("→ POST /login?api_key=<redacted>"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains(#""password" : "<redacted>""#))
        #expect(text.contains(#""login" : "ada""#))
        #expect(text.contains("← 200 POST /login?api_key=<redacted>"))
        #expect(text.contains("Set-Cookie: <redacted>"))
        #expect(text.contains(#""token" : "<redacted>""#))
        #expect(text.contains(#""name" : "Ada""#))
        for secret in ["t0k3n", "k3y", "hunter2", "s3cr3t", "abc", "\"pw\""] {
            #expect(!text.contains(secret), "\(secret) leaked into the log")
        }
    }

    @Test func unredactedNamesAreShownForThatResourceOnly() async throws {
        let recorder = try Recorder()
        let log = LogCapture()
        var logger = Logger(label: "test") { _ in log }
        logger.logLevel = .debug
        let client = APIClient(
            baseURL: Self.base, configuration: .init(headerFields: [.authorization: "Bearer visible"], logger: logger),
            transport: StubTransport(recorder.registry))
        try await client.send(Resource<Void>.get("/debug").unredacted("Authorization"))
        #expect(log.text.contains("Authorization: Bearer visible"))
    }

    @Test func failuresReachTheStreamAndTheDelegate() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .unauthorized), for: .get("/private"))
        try registry.register(StubResponse(json: "[]"), for: .get("/public"))
        final class SignOut: APIClientDelegate {
            let heard = Mutex<[String]>([])
            func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest) {
                heard.withLock { $0.append("\(error)") }
            }
        }
        let delegate = SignOut()
        let client = APIClient(
            baseURL: Self.base, configuration: .init(delegate: delegate), transport: StubTransport(registry))
        let stream = client.failures()
        _ = try? await client.send(Resource<Void>.get("/private"))
        _ = try await client.send(Resource<[Int]>.get("/public"))
        _ = try? await client.send(Resource<[String: Int]>.get("/public"))
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()?.error
        let second = await iterator.next()?.error
        guard case .unacceptableStatus(let status) = first, case .decoding = second else {
            Issue.record(
                """
                expected a status failure then a decoding failure, got \(String(describing: first)), \
                \(String(describing: second))
                """
            )
            return
        }
        #expect(status.status == .unauthorized)
        #expect(delegate.heard.withLock { $0 } == [first, second].map { "\($0!)" }, "the delegate heard the same")
    }

    @Test func aFailureNamesItsRequestToTheStreamAndTheDelegate() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .unauthorized), for: .post("/login"))
        try registry.register(StubResponse(status: .unauthorized), for: .get("/me"))
        final class Heard: APIClientDelegate {
            let requests = Mutex<[String]>([])
            func client(_ client: APIClient, didFail error: APIError, for request: HTTPRequest) {
                requests.withLock { $0.append("\(request.method) \(request.path ?? "")") }
            }
        }
        let delegate = Heard()
        let client = APIClient(
            baseURL: Self.base,
            configuration: .init(
                interceptors: [RequestAdapter { request, _ in request.headerFields[.authorization] = "Bearer t" }],
                delegate: delegate),
            transport: StubTransport(registry))
        let stream = client.failures()
        _ = try? await client.send(Resource<Void>.post("/login", body: ["user": "ada"]))
        _ = try? await client.send(Resource<Void>.get("/me"))
        var iterator = stream.makeAsyncIterator()
        let login = try #require(await iterator.next())
        let me = try #require(await iterator.next())
        #expect([login, me].map { "\($0.request.method) \($0.request.path ?? "")" } == ["POST /login", "GET /me"])
        #expect(login.request.headerFields[.authorization] == nil, "the request as the client built it")
        guard case .unacceptableStatus(let response) = login.error else {
            Issue.record("expected the 401, got \(login.error)")
            return
        }
        #expect(response.status == .unauthorized)
        #expect(delegate.requests.withLock { $0 } == ["POST /login", "GET /me"])
    }

    @Test func aDelegateAndAStreamWrittenBeforeTheRequestWasGivenStillHearEveryFailure() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .unauthorized), for: .get("/me"))
        let legacy = LegacyFailureListening() as any MakesLegacyFailureListeners
        let delegate = legacy.delegate()
        let client = APIClient(
            baseURL: Self.base, configuration: .init(delegate: delegate), transport: StubTransport(registry))
        let stream = legacy.stream(of: client)
        _ = try? await client.send(Resource<Void>.get("/me"))
        var iterator = stream.makeAsyncIterator()
        guard case .unacceptableStatus(let response) = await iterator.next() else {
            Issue.record("expected the 401 in the stream")
            return
        }
        #expect(response.status == .unauthorized)
        #expect(legacy.heard(delegate) == ["401"])
    }

    @Test func perResourceTimeoutOverridesTheClients() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(delay: .fixed(.seconds(5))), for: .get("/slow"))
        let client = APIClient(
            baseURL: Self.base, configuration: .init(timeout: .seconds(60)), transport: StubTransport(registry))
        let error = await #expect(throws: APIError.self) {
            try await client.send(Resource<Void>.get("/slow").timeout(.milliseconds(20)))
        }
        guard case .transport(let failure, _) = error else { Issue.record("expected a transport failure"); return }
        #expect(failure == .timedOut)
    }

    static func immediateRetry(attempts: Int) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, wait: .zero, multiplier: 1, jitter: 0)
    }
}

/// Collects log lines for assertions.
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lines = Mutex<[String]>([])
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.message)") }
    }
}

/// The deprecated failure API as code written before the request was given uses it, reached
/// through a protocol whose witnesses are deprecated, so that testing it warns of nothing.
private protocol MakesLegacyFailureListeners {
    func delegate() -> any APIClientDelegate
    func stream(of client: APIClient) -> AsyncStream<APIError>
    func heard(_ delegate: any APIClientDelegate) -> [String]
}

private struct LegacyFailureListening: MakesLegacyFailureListeners {
    final class Delegate {
        let statuses = Mutex<[String]>([])
    }

    @available(*, deprecated, message: "tests the deprecated failure API")
    func delegate() -> any APIClientDelegate { Delegate() }

    @available(*, deprecated, message: "tests the deprecated failure API")
    func stream(of client: APIClient) -> AsyncStream<APIError> { client.failureStream() }

    func heard(_ delegate: any APIClientDelegate) -> [String] {
        (delegate as? Delegate)?.statuses.withLock { $0 } ?? []
    }
}

@available(*, deprecated, message: "tests the deprecated failure API")
extension LegacyFailureListening.Delegate: APIClientDelegate {
    func client(_ client: APIClient, didFail error: APIError) {
        if case .unacceptableStatus(let response) = error { statuses.withLock { $0.append("\(response.status.code)") } }
    }
}
