import Foundation
import HTTPTypes

extension APIClient {
    /// Every response the cache policy delivers for `resource`: with ``CachePolicy/cacheThenNetwork``
    /// the cached one first (when there is one, marked ``Response/Source/cache``) and then the
    /// network's; with any other policy, the one ``response(for:)-(Resource<Value>)`` gives.
    ///
    /// The stream fails with an ``APIError``. Stopping the iteration cancels the request.
    public func responses<Value: Decodable & Sendable>(for resource: Resource<Value>) -> AsyncThrowingStream<
        Response<Value>, any Error
    > {
        deliveries(options: resource.options) { () throws(APIError) in
            try self.makeRequest(for: resource)
        } decode: {
            data, _ in
            try self.decodeBody(data, for: resource)
        }
    }

    /// Every value the cache policy delivers for `request`, as ``responses(for:)-(Resource<Value>)``
    /// delivers them for a resource, each finalized and post-processed as `send` does.
    public func responses<R: Request>(for request: R) -> AsyncThrowingStream<Response<R.Final>, any Error>
    where R.Raw: Decodable, R.Final: Sendable {
        let resource = request.resource
        return deliveries(options: resource.options, finishing: request.postProcess) { () throws(APIError) in
            try self.makeRequest(for: resource)
        } decode: { data, _ in
            try request.finalize(raw: self.decodeBody(data, for: resource))
        }
    }

    /// Every value the cache policy delivers for `request`, whose body is ignored, as
    /// ``responses(for:)-(Resource<Value>)`` delivers them for a resource.
    public func responses<R: Request>(for request: R) -> AsyncThrowingStream<Response<R.Final>, any Error>
    where R.Raw == Void, R.Final: Sendable {
        let resource = request.resource
        return deliveries(options: resource.options, finishing: request.postProcess) { () throws(APIError) in
            try self.makeRequest(for: resource)
        } decode: { data, _ in
            try request.finalize(raw: self.decodeBody(data, for: resource))
        }
    }

    /// Every value the client's cache policy delivers for `endpoint`, parsed by the endpoint, as
    /// ``responses(for:)-(Resource<Value>)`` delivers them for a resource.
    public func responses<E: Endpoint>(for endpoint: E) -> AsyncThrowingStream<Response<E.Output>, any Error>
    where E.Output: Sendable {
        deliveries(options: RequestOptions()) { () throws(APIError) in
            try endpoint.httpRequest()
        } decode: {
            data, response in
            try endpoint.parse(data: data, response: response)
        }
    }

    /// The deliveries of a request `build` makes: the cached one first under
    /// ``CachePolicy/cacheThenNetwork``, then the network's, each decoded and then `finish`ed.
    private func deliveries<Value: Sendable>(
        options: RequestOptions, finishing finish: @escaping @Sendable (Value) async -> Value = { $0 },
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
            await configuration.cache?.removeResponse(for: CacheKey(request))
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
