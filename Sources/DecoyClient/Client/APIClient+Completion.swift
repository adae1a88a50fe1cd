import Foundation

extension APIClient {
    /// Sends `resource` and calls `completion` with the decoded value or the error.
    ///
    /// For callers without async/await; cancel the returned task to cancel the request.
    @discardableResult
    public func send<Value: Decodable & Sendable>(
        _ resource: Resource<Value>,
        completion: @escaping @Sendable (Result<Value, APIError>) -> Void
    ) -> Task<Void, Never> {
        Task { completion(await Result { () async throws(APIError) in try await self.send(resource) }) }
    }

    /// Sends `resource`, ignoring the body, and calls `completion` when it is done.
    @discardableResult
    public func send(
        _ resource: Resource<Void>,
        completion: @escaping @Sendable (Result<Void, APIError>) -> Void
    ) -> Task<Void, Never> {
        Task { completion(await Result { () async throws(APIError) in try await self.send(resource) }) }
    }
}

extension Result where Failure == APIError {
    init(_ body: () async throws(APIError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
