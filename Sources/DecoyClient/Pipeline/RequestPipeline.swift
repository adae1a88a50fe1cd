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
                throw .transport(TransportFailure(classifying: error))
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

    /// Sends with retries, a timeout per attempt and debug logging, as far as each is on.
    private func sendWithSteps(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError) -> (
        HTTPResponse, Data
    ) {
        let retry = retry(request, options: options)
        let timeout = options.timeout ?? configuration.timeout
        let log =
            configuration.logger.logLevel <= .debug
            ? ExchangeLog(redaction: configuration.redaction, unredacted: options.unredacted) : nil
        var attempt = 1
        while true {
            let retriesLeft = attempt < retry.maxAttempts
            do throws(APIError) {
                let (response, data) = try await attemptOnce(request, body: body, timeout: timeout, log: log)
                guard retriesLeft, retry.retryableStatuses.contains(response.status.code) else {
                    return (response, data)
                }
            } catch {
                guard retriesLeft, case .transport(let failure) = error,
                    retry.retryableFailures.contains(failure.category)
                else { throw error }
            }
            do {
                try await configuration.clock.sleep(
                    for: retry.wait(beforeRetry: attempt, unitRandom: .random(in: 0..<1)))
            } catch {
                throw .transport(TransportFailure(.cancelled, underlying: error))
            }
            attempt += 1
            log.map { _ in
                configuration.logger.debug(
                    "↻ retrying \(request.method) \(request.path ?? "/") (attempt \(attempt) of \(retry.maxAttempts))")
            }
        }
    }

    private func attemptOnce(_ request: HTTPRequest, body: Data?, timeout: Duration?, log: ExchangeLog?)
        async throws(APIError) -> (HTTPResponse, Data)
    {
        let start = log.map { _ in ContinuousClock.now }
        if let log { configuration.logger.debug("\(log.request(request, body: body))") }
        do {
            let (response, data) = try await withTimeout(timeout) { try await forward(request, body) }
            if let log, let start {
                configuration.logger.debug("\(log.response(response, body: data, to: request, after: .now - start))")
            }
            return (response, data)
        } catch {
            let failure = TransportFailure(classifying: error)
            if log != nil {
                configuration.logger.debug("✕ \(request.method) \(request.path ?? "/"): \(failure.category): \(error)")
            }
            throw .transport(failure)
        }
    }

    /// Races `operation` against the clock; the loser is cancelled.
    private func withTimeout(
        _ timeout: Duration?, _ operation: @escaping @Sendable () async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard let timeout else { return try await operation() }
        let clock = configuration.clock
        return try await withThrowingTaskGroup(of: (HTTPResponse, Data)?.self) { group in
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
