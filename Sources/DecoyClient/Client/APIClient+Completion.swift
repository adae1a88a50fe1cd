import Foundation

// Completion-handler variants for callers without async/await: each one sends through its async
// counterpart and calls `completion` with the value or the error. Cancel the returned task to
// cancel the request.
extension APIClient {
    /// Sends `resource` and calls `completion` with the decoded value or the error.
    @discardableResult
    public func send<Value: Decodable & Sendable>(
        _ resource: Resource<Value>,
        completion: @escaping @Sendable (Result<Value, APIError>) -> Void
    ) -> Task<Void, Never> {
        complete(completion) { () async throws(APIError) in try await self.send(resource) }
    }

    /// Sends `resource`, ignoring the body, and calls `completion` when it is done.
    @discardableResult
    public func send(
        _ resource: Resource<Void>,
        completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) -> Task<Void, Never> {
        complete(completion) { () async throws(APIError) in try await self.send(resource) }
    }

    /// Sends `request` and calls `completion` with its finalized, post-processed value or the error.
    @discardableResult
    public func send<R: Request>(
        _ request: R,
        completion: @escaping @Sendable (Result<R.Final, APIError>) -> Void
    ) -> Task<Void, Never> where R.Raw: Decodable {
        complete(completion) { () async throws(APIError) in try await self.send(request) }
    }

    /// Sends `request`, ignoring the body, and calls `completion` with its finalized,
    /// post-processed value or the error.
    @discardableResult
    public func send<R: Request>(
        _ request: R,
        completion: @escaping @Sendable (Result<R.Final, APIError>) -> Void
    ) -> Task<Void, Never> where R.Raw == Void {
        complete(completion) { () async throws(APIError) in try await self.send(request) }
    }

    /// Sends `endpoint` and calls `completion` with its parsed output or the error.
    @discardableResult
    public func send<E: Endpoint>(
        _ endpoint: E,
        completion: @escaping @Sendable (Result<E.Output, APIError>) -> Void
    ) -> Task<Void, Never> {
        complete(completion) { () async throws(APIError) in try await self.send(endpoint) }
    }

    /// Runs `send` in a new task and hands its outcome to `completion`.
    private func complete<Value>(
        _ completion: @escaping @Sendable (Result<Value, APIError>) -> Void,
        _ send: @escaping @Sendable () async throws(APIError) -> Value
    ) -> Task<Void, Never> {
        Task { completion(await Result(send)) }
    }
}

extension Result where Failure == APIError {
    init(_ body: () async throws(APIError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
