import Foundation
import HTTPTypes
import Logging

/// Sends ``Resource``s through a ``Transport`` and decodes what comes back.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com")!)
/// let user: User = try await client.send(.get("/users/42"))
/// ```
public final class APIClient: Sendable {
    /// The URL every resource path is relative to.
    public let baseURL: URL
    /// Settings shared by every request.
    public let configuration: Configuration
    /// What carries the requests.
    public let transport: any Transport

    private let target: BaseTarget
    private let pipeline: RequestPipeline
    private let failures = FailureBroadcast()

    /// Creates a client for `baseURL` sending through `transport`.
    public init(baseURL: URL, configuration: Configuration = Configuration(), transport: any Transport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.transport = transport
        self.target = BaseTarget(baseURL)
        self.pipeline = RequestPipeline(transport: transport, configuration: configuration)
    }

    /// A stream of every request of this client that fails from now on, whoever sent it.
    ///
    /// Each call gives a new stream; a stream stops receiving when its consumer stops iterating.
    public func failureStream() -> AsyncStream<ClientFailure> {
        failures.stream()
    }

    /// Sends `resource` and returns its decoded value.
    public func send<Value: Decodable>(_ resource: Resource<Value>) async throws(APIError) -> Value {
        try await response(for: resource).value
    }

    /// Sends `resource`, ignoring the response body.
    public func send(_ resource: Resource<Void>) async throws(APIError) {
        _ = try await response(for: resource)
    }

    /// Sends `resource` and returns the decoded value with the status and headers it came with.
    ///
    /// The resource's cache policy, or the client's, decides whether the cache answers.
    public func response<Value: Decodable>(for resource: Resource<Value>) async throws(APIError) -> Response<Value> {
        try await response(for: resource, decode: decodingStep(for: resource))
    }

    /// Sends `resource` and returns the status and headers; the body is left undecoded.
    public func response(for resource: Resource<Void>) async throws(APIError) -> Response<Void> {
        try await response(for: resource, decode: decodingStep(for: resource))
    }

    /// Sends `resource` and decodes its body with `decode`.
    func response<Raw, Value>(for resource: Resource<Raw>, decode: (Data, HTTPResponse) throws -> Value) async throws(APIError) -> Response<Value> {
        let (request, body) = try makeRequest(for: resource)
        return try await perform(request, body: body, options: resource.options, decode: decode)
    }

    /// Gets a built request's response, from the cache or through the pipeline, and decodes it.
    func perform<Value>(
        _ request: HTTPRequest, body: Data?, options: RequestOptions,
        decode: (Data, HTTPResponse) throws -> Value
    ) async throws(APIError) -> Response<Value> {
        let policy = options.cachePolicy ?? configuration.cachePolicy
        if policy == .cacheElseNetwork, let cached = await cachedResponse(for: request, policy: policy) {
            return try decoded(cached, from: .cache, to: request, by: decode)
        }
        let (head, data) = try await exchange(request, body: body, options: options)
        if policy.storesResponses, let cache = configuration.cache {
            await cache.store(CachedResponse(response: head, body: data), for: CacheKey(request))
        }
        return try decoded(CachedResponse(response: head, body: data), from: .network, to: request, by: decode)
    }

    /// The cached response to `request` when `policy` reads the cache first.
    func cachedResponse(for request: HTTPRequest, policy: CachePolicy) async -> CachedResponse? {
        guard policy.readsCacheFirst, let cache = configuration.cache else { return nil }
        return await cache.response(for: CacheKey(request))
    }

    /// Sends through the pipeline and checks the status.
    private func exchange(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError) -> (HTTPResponse, Data) {
        do throws(APIError) {
            let (response, data) = try await pipeline.send(request, body: body, options: options)
            guard configuration.acceptableStatuses.contains(response.status.code) else {
                throw APIError.unacceptableStatus(StatusFailure(
                    status: response.status, headerFields: response.headerFields, body: data,
                    decodedBody: configuration.errorBodyType.flatMap { decodeErrorBody($0, from: data) }
                ))
            }
            return (response, data)
        } catch {
            throw report(error, for: request)
        }
    }

    /// Decodes a response; a step that throws an ``APIError`` (a fallback) keeps it, any other error is a decoding failure.
    func decoded<Value>(
        _ cached: CachedResponse, from source: Response<Value>.Source, to request: HTTPRequest,
        by decode: (Data, HTTPResponse) throws -> Value
    ) throws(APIError) -> Response<Value> {
        let (head, data) = (cached.response, cached.body)
        do {
            let value = try decode(data, head)
            return Response(value: value, status: head.status, headerFields: head.headerFields, data: data, source: source)
        } catch {
            throw report(APIError(parsing: error, of: data), for: request)
        }
    }

    /// The resource's own decoding step, or the default one.
    func decodingStep<Value: Decodable>(for resource: Resource<Value>) -> (Data, HTTPResponse) throws -> Value {
        let context = decodingContext(for: resource)
        return { data, _ in try resource.decode?(data, context) ?? context.decode(Value.self, from: data) }
    }

    /// The resource's own decoding step, if any, for a resource that ignores its body.
    func decodingStep(for resource: Resource<Void>) -> (Data, HTTPResponse) throws -> Void {
        let context = decodingContext(for: resource)
        return { data, _ in try resource.decode?(data, context) }
    }

    private func decodingContext<Value>(for resource: Resource<Value>) -> DecodingContext {
        DecodingContext(
            decoder: resource.options.decoder ?? configuration.decoder,
            envelope: resource.envelope,
            arrays: resource.options.arrayDecoding ?? configuration.arrayDecoding
        )
    }

    /// Tells the delegate and the failure streams, then hands the error back to be thrown.
    func report(_ error: APIError, for request: HTTPRequest) -> APIError {
        let failure = ClientFailure(request: request, error: error)
        configuration.delegate?.client(self, didFail: failure)
        failures.send(failure)
        return error
    }

    private func decodeErrorBody<Body: Decodable & Sendable>(_ type: Body.Type, from data: Data) -> Body? {
        try? configuration.decoder.decode(type, from: data)
    }

    func makeRequest<Value>(for resource: Resource<Value>) throws(APIError) -> (HTTPRequest, Data?) {
        var fields = configuration.headerFields
        for field in resource.headerFields {
            fields[field.name] = nil
        }
        fields.append(contentsOf: resource.headerFields)
        let body = try RequestBody.encode(resource.body, with: configuration.encoder, into: &fields, describing: "\(resource.method) \(resource.path)")
        let path = target.path(resource.path, query: configuration.queryItems + resource.query)
        return (HTTPRequest(method: resource.method, scheme: target.scheme, authority: target.authority, path: path, headerFields: fields), body)
    }
}
