import Foundation
import HTTPTypes
import Logging

/// What every exchange goes through between ``APIClient`` and its transport: the interceptors
/// (composed once, here), a timeout per attempt, retries with backoff, and debug logging.
///
/// With no retry, no timeout and logging above debug, an exchange is one call down the chain:
/// the steps' machinery is kept out of that path, where each of its frames, closures and task
/// groups would cost allocations per request however little it did.
struct RequestPipeline: Sendable {
    private let transport: any Transport
    /// The interceptors around the transport; `nil` without interceptors, so that the transport
    /// is called with no closure in between.
    private let chain: Interceptor.Next?
    private let configuration: APIClient.Configuration

    /// Built once: a policy's default sets would otherwise be allocated on every request.
    private static let noRetry = RetryPolicy(maxAttempts: 1)

    init(transport: any Transport, configuration: APIClient.Configuration) {
        self.transport = transport
        self.configuration = configuration
        var chain: Interceptor.Next?
        for interceptor in configuration.interceptors.reversed() {
            let rest = chain ?? { request, body in try await transport.send(request, body: body) }
            chain = { request, body in try await interceptor.intercept(request, body: body, next: rest) }
        }
        self.chain = chain
    }

    func send(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError) -> (
        HTTPResponse, Data
    ) {
        guard takesSteps(request, options: options) else {
            do { return try await forward(request, body) } catch {
                throw APIError(transporting: error)
            }
        }
        return try await sendWithSteps(request, body: body, options: options)
    }

    /// Whether retry, a timeout or logging is on for `request`.
    ///
    /// Not inlined: in the async caller its temporaries would enlarge the frame every request allocates.
    @inline(never)
    private func takesSteps(_ request: HTTPRequest, options: RequestOptions) -> Bool {
        retry(request, options: options).maxAttempts > 1 || (options.timeout ?? configuration.timeout) != nil
            || configuration.logger.logLevel <= .debug
    }

    /// The policy `request` is retried by: a single attempt when its method is not retried.
    private func retry(_ request: HTTPRequest, options: RequestOptions) -> RetryPolicy {
        let retry = options.retry ?? configuration.retry ?? Self.noRetry
        return retry.retriesNonIdempotentMethods || request.method.isIdempotent ? retry : Self.noRetry
    }

    /// Sends through the interceptors, then the transport.
    private func forward(_ request: HTTPRequest, _ body: Data?) async throws -> (HTTPResponse, Data) {
        if let chain { try await chain(request, body) } else { try await transport.send(request, body: body) }
    }

    /// Sends `request` with `body` through the same interceptors, retries, timeout and logging as
    /// ``send(_:body:options:)``, and returns the head with the body to read as it comes.
    ///
    /// A retry happens only before the body's first chunk: a retried status drops its body unread,
    /// and a failure while the body is read is the reader's. The timeout is the head's.
    func stream(_ request: HTTPRequest, body: UploadBody?, options: RequestOptions) async throws(APIError) -> (
        HTTPResponse, ResponseBody
    ) {
        let exchange: Exchange<ResponseBody> = { request in try await streamThroughInterceptors(request, body: body) }
        guard takesSteps(request, options: options) else {
            do { return try await exchange(request) } catch { throw APIError(transporting: error) }
        }
        var logged: Data?
        if case .data(let data) = body?.source { logged = data }
        return try await sendWithSteps(
            request, body: logged, options: options, through: exchange, logging: { _ in Data() },
            dropping: { $0.cancel() })
    }

    /// One attempt of a streamed exchange: interceptors see the request and an in-memory body
    /// (`nil` for a file), and what the last one passes on is streamed by the transport. An
    /// interceptor that answers without the transport has its body handed on as one chunk.
    private func streamThroughInterceptors(_ request: HTTPRequest, body: UploadBody?) async throws -> (
        HTTPResponse, ResponseBody
    ) {
        guard !configuration.interceptors.isEmpty else { return try await transport.stream(request, body: body) }
        let opened = Mutex<ResponseBody?>(nil)
        let transport = transport
        var next: Interceptor.Next = { request, data in
            let upload = data.map { UploadBody(.data($0), sent: body?.reportSent) } ?? body
            let (response, chunks) = try await transport.stream(request, body: upload)
            opened.withLock { $0 = chunks }
            return (response, Data())
        }
        for interceptor in configuration.interceptors.reversed() {
            let rest = next
            next = { request, data in try await interceptor.intercept(request, body: data, next: rest) }
        }
        var data: Data?
        if case .data(let bytes) = body?.source { data = bytes }
        let (response, answered) = try await next(request, data)
        return (response, opened.withLock { $0 } ?? ResponseBody(answered))
    }

    /// One exchange of a request whose body is already chosen: the head, and the body as received.
    private typealias Exchange<Received> = @Sendable (HTTPRequest) async throws -> (HTTPResponse, Received)

    /// Sends with retries, a timeout per attempt and debug logging, as far as each is on.
    private func sendWithSteps(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError) -> (
        HTTPResponse, Data
    ) {
        try await sendWithSteps(
            request, body: body, options: options, through: { request in try await forward(request, body) },
            logging: { $0 }, dropping: { _ in })
    }

    /// Sends through `exchange` with retries, a timeout per attempt and debug logging, as far as
    /// each is on; `logged` is the body the log shows, and `drop` lets go of a retried answer's.
    private func sendWithSteps<Received: Sendable>(
        _ request: HTTPRequest, body: Data?, options: RequestOptions, through exchange: @escaping Exchange<Received>,
        logging logged: (Received) -> Data, dropping drop: (Received) -> Void
    ) async throws(APIError) -> (HTTPResponse, Received) {
        let retry = retry(request, options: options)
        let timeout = options.timeout ?? configuration.timeout
        let log =
            configuration.logger.logLevel <= .debug
            ? ExchangeLog(redaction: configuration.redaction, unredacted: options.unredacted) : nil
        var attempt = 1
        while true {
            let retriesLeft = attempt < retry.maxAttempts
            do throws(APIError) {
                let (response, received) = try await attemptOnce(
                    request, body: body, timeout: timeout, log: log, through: exchange, logging: logged)
                guard retriesLeft, retry.retryableStatuses.contains(response.status.code) else {
                    return (response, received)
                }
                drop(received)
            } catch {
                guard retriesLeft, case .transport(let failure, _) = error,
                    retry.retryableFailures.contains(failure)
                else { throw error }
            }
            do {
                try await configuration.clock.sleep(
                    for: retry.wait(beforeRetry: attempt, unitRandom: .random(in: 0..<1)))
            } catch {
                throw .transport(.cancelled, underlying: error)
            }
            attempt += 1
            log.map { _ in
                let target = "\(request.method) \(request.path ?? "/")"
                configuration.logger.debug("↻ retrying \(target) (attempt \(attempt) of \(retry.maxAttempts))")
            }
        }
    }

    private func attemptOnce<Received: Sendable>(
        _ request: HTTPRequest, body: Data?, timeout: Duration?, log: ExchangeLog?,
        through exchange: @escaping Exchange<Received>, logging logged: (Received) -> Data
    ) async throws(APIError) -> (HTTPResponse, Received) {
        let start = log.map { _ in ContinuousClock.now }
        if let log { configuration.logger.debug("\(log.request(request, body: body))") }
        do {
            let (response, received) = try await withTimeout(timeout) { try await exchange(request) }
            if let log, let start {
                configuration.logger.debug(
                    "\(log.response(response, body: logged(received), to: request, after: .now - start))")
            }
            return (response, received)
        } catch {
            let failure = TransportFailure(classifying: error)
            if log != nil {
                configuration.logger.debug("✕ \(request.method) \(request.path ?? "/"): \(failure): \(error)")
            }
            throw .transport(failure, underlying: error)
        }
    }

    /// Races `operation` against the clock; the loser is cancelled.
    private func withTimeout<Received: Sendable>(
        _ timeout: Duration?, _ operation: @escaping @Sendable () async throws -> (HTTPResponse, Received)
    ) async throws -> (HTTPResponse, Received) {
        guard let timeout else { return try await operation() }
        let clock = configuration.clock
        return try await withThrowingTaskGroup(of: (HTTPResponse, Received)?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw URLError(.timedOut) }
            return result
        }
    }
}

extension HTTPRequest.Method {
    /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2).
    var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: true
        default: false
        }
    }

    /// Whether the method only reads (RFC 9110, 9.2.1): any other may change what a cache keeps.
    var isSafe: Bool {
        switch self {
        case .get, .head, .options, .trace: true
        default: false
        }
    }
}
