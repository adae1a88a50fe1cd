import Foundation

// Completion-handler variants for callers without async/await: each one sends through its async
// counterpart and calls `completion` with the value or the error. Cancel the returned task to
// cancel the request.
extension APIClient {
    /// Sends `resource` and calls `completion` with the decoded value or the error.
    @discardableResult
    public func send<Value>(
        _ resource: Resource<Value>,
        completion: @escaping @Sendable (Result<Value, APIError>) -> Void
    ) -> Task<Void, Never> {
        complete(completion) { () async throws(APIError) in try await self.send(resource) }
    }

    /// Sends `request` and calls `completion` with its finalized, post-processed value or the error.
    @discardableResult
    public func send<Final>(
        _ request: some Request<Final>,
        completion: @escaping @Sendable (Result<Final, APIError>) -> Void
    ) -> Task<Void, Never> {
        complete(completion) { () async throws(APIError) in try await self.send(request) }
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
