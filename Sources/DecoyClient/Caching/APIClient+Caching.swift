extension APIClient {
    /// Every response the cache policy delivers for `resource`: with ``CachePolicy/cacheThenNetwork``
    /// the cached one first (when there is one, marked ``Response/Source/cache``) and then the
    /// network's; with any other policy, the one ``response(for:)-(Resource<Value>)`` gives.
    ///
    /// The stream fails with an ``APIError``. Stopping the iteration cancels the request.
    public func responses<Value: Decodable & Sendable>(for resource: Resource<Value>) -> AsyncThrowingStream<
        Response<Value>, any Error
    > {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(APIError) {
                    if let cached = try await cachedDelivery(of: resource) { continuation.yield(cached) }
                    continuation.yield(try await response(for: resource))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The first delivery of ``CachePolicy/cacheThenNetwork``, decoded.
    private func cachedDelivery<Value: Decodable>(of resource: Resource<Value>) async throws(APIError) -> Response<
        Value
    >? {
        let (request, _) = try makeRequest(for: resource)
        guard cachePolicy(for: request, options: resource.options) == .cacheThenNetwork,
            let cached = await storedResponse(for: request, key: CacheKey(request), policy: .cacheThenNetwork)
        else { return nil }
        // An entry that no longer decodes is dropped; the network's delivery follows as usual.
        guard let value = try? decodeBody(cached.body, for: resource) else {
            await configuration.cache?.removeResponse(for: CacheKey(request))
            return nil
        }
        return Response(value, of: cached, from: .cache)
    }
}
