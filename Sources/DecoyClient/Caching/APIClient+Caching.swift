import Foundation
import HTTPTypes

extension APIClient {
    /// Every value the cache policy delivers for `request`: with ``CachePolicy/cacheThenNetwork``
    /// the cached one first (when there is one, marked ``ResponseSource/cache``) and then the
    /// network's; with any other policy, the one `send` gives. Each is finalized and
    /// post-processed as `send` does.
    ///
    /// The stream fails with an ``APIError``. Stopping the iteration cancels the request.
    public func responses<Final: Sendable>(for request: some Request<Final>) -> AsyncThrowingStream<
        Response<Final>, any Error
    > {
        deliveries(of: request)
    }

    /// Every value the cache policy delivers for `resource`, as for any request.
    ///
    /// The same as giving it as a ``Request``; this form lets a call site name a resource by a
    /// static member, `client.responses(for: .user(id: 42))`.
    public func responses<Value: Sendable>(for resource: Resource<Value>) -> AsyncThrowingStream<
        Response<Value>, any Error
    > {
        deliveries(of: resource)
    }

    /// The deliveries of `request`, finalized and post-processed as `send` does.
    private func deliveries<Final: Sendable>(of request: some Request<Final>) -> AsyncThrowingStream<
        Response<Final>, any Error
    > {
        let resource = request.resourceWithParameters
        return deliveries(options: resource.options, finishing: request.postProcess) { () throws(APIError) in
            let (built, body) = try self.makeRequest(for: resource)
            return (request.prepare(request: built), body)
        } decode: { data, response in
            try request.finalize(raw: self.decodeBody(data, response, for: resource))
        }
    }

    /// The deliveries of a request `build` makes: the cached one first under
    /// ``CachePolicy/cacheThenNetwork``, then the network's, each decoded and then `finish`ed.
    private func deliveries<Value: Sendable>(
        options: RequestOptions, finishing finish: @escaping @Sendable (Value) async -> Value,
        _ build: @escaping @Sendable () throws(APIError) -> (HTTPRequest, Data?),
        decode: @escaping @Sendable (Data, HTTPResponse) throws -> Value
    ) -> AsyncThrowingStream<Response<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(APIError) {
                    let (request, body) = try build()
                    if let cached = await cachedDelivery(of: request, options: options, decode: decode) {
                        continuation.yield(await cached.finished(by: finish))
                    }
                    let response = try await perform(request, body: body, options: options, decode: decode)
                    continuation.yield(await response.finished(by: finish))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The first delivery of ``CachePolicy/cacheThenNetwork``, decoded.
    private func cachedDelivery<Value>(
        of request: HTTPRequest, options: RequestOptions, decode: (Data, HTTPResponse) throws -> Value
    ) async -> Response<Value>? {
        guard cachePolicy(for: request, options: options) == .cacheThenNetwork,
            let cached = await storedResponse(for: request, key: CacheKey(request), policy: .cacheThenNetwork)
        else { return nil }
        // An entry that no longer decodes is dropped; the network's delivery follows as usual.
        guard let value = try? decode(cached.body, cached.response) else {
            await configuration.cache?.storage.removeResponse(for: CacheKey(request))
            return nil
        }
        return Response(value, of: cached, from: .cache)
    }
}

extension Response where Value: Sendable {
    /// The response with its value passed through `finish`.
    fileprivate func finished(by finish: @Sendable (Value) async -> Value) async -> Response {
        Response(value: await finish(value), status: status, headerFields: headerFields, body: body, source: source)
    }
}
