import Foundation
import HTTPTypes
import Logging

/// What every exchange goes through between ``APIClient`` and its transport: the interceptors
/// (composed once, here), a timeout per attempt, retries with backoff, and debug logging.
///
/// With no interceptors, no retry and logging above debug, an exchange costs one timeout race
/// on top of the transport call, or nothing when there is no timeout.
struct RequestPipeline: Sendable {
    private let chain: Interceptor.Next
    private let configuration: APIClient.Configuration

    /// Built once: a policy's default sets would otherwise be allocated on every request.
    private static let noRetry = RetryPolicy(maxAttempts: 1)

    init(transport: any Transport, configuration: APIClient.Configuration) {
        self.configuration = configuration
        var next: Interceptor.Next = { request, body in try await transport.send(request, body: body) }
        for interceptor in configuration.interceptors.reversed() {
            let rest = next
            next = { request, body in try await interceptor.intercept(request, body: body, next: rest) }
        }
        chain = next
    }

    func send(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError) -> (HTTPResponse, Data) {
        let retry = options.retry ?? configuration.retry ?? Self.noRetry
        let log = configuration.logger.logLevel <= .debug
            ? ExchangeLog(redaction: configuration.redaction, unredacted: options.unredacted) : nil
        let mayRetry = retry.maxAttempts > 1 && (retry.retriesNonIdempotentMethods || request.method.isIdempotent)
        var attempt = 1
        while true {
            let retriesLeft = mayRetry && attempt < retry.maxAttempts
            do throws(APIError) {
                let (response, data) = try await attemptOnce(request, body: body, timeout: options.timeout ?? configuration.timeout, log: log)
                guard retriesLeft, retry.retryableStatuses.contains(response.status.code) else { return (response, data) }
            } catch {
                guard retriesLeft, case .transport(let failure) = error, retry.retryableFailures.contains(failure.category) else { throw error }
            }
            do {
                try await configuration.clock.sleep(for: retry.wait(beforeRetry: attempt, unitRandom: .random(in: 0..<1)))
            } catch {
                throw .transport(TransportFailure(.cancelled, underlying: error))
            }
            attempt += 1
            log.map { _ in configuration.logger.debug("↻ retrying \(request.method) \(request.path ?? "/") (attempt \(attempt) of \(retry.maxAttempts))") }
        }
    }

    private func attemptOnce(_ request: HTTPRequest, body: Data?, timeout: Duration?, log: ExchangeLog?) async throws(APIError) -> (HTTPResponse, Data) {
        let start = log.map { _ in ContinuousClock.now }
        if let log { configuration.logger.debug("\(log.request(request, body: body))") }
        do {
            let (response, data) = try await withTimeout(timeout) { try await chain(request, body) }
            if let log, let start {
                configuration.logger.debug("\(log.response(response, body: data, to: request, after: .now - start))")
            }
            return (response, data)
        } catch {
            let failure = TransportFailure(classifying: error)
            if log != nil { configuration.logger.debug("✕ \(request.method) \(request.path ?? "/"): \(failure.category): \(error)") }
            throw .transport(failure)
        }
    }

    /// Races `operation` against the clock; the loser is cancelled.
    private func withTimeout(_ timeout: Duration?, _ operation: @escaping @Sendable () async throws -> (HTTPResponse, Data)) async throws -> (HTTPResponse, Data) {
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
}
