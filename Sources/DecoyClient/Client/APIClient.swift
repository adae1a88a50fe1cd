public import Foundation
import HTTPTypes
import Logging

/// Sends ``Resource``s and ``Request``s through a ``Transport`` and decodes what comes back.
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
    let pipeline: RequestPipeline
    /// `nil` when the configuration leaves cookies alone.
    let cookies: CookieJar?
    private let failureBroadcast = FailureBroadcast()
    /// With `stopwatch`, the clock of ``now()``.
    private let started = Date()
    private let stopwatch: Stopwatch

    /// Creates a client for `baseURL` sending through `transport`.
    public init(
        baseURL: URL, configuration: Configuration = Configuration(), transport: any Transport = URLSessionTransport()
    ) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.transport = transport
        self.target = BaseTarget(baseURL)
        self.stopwatch = Stopwatch(configuration.clock)
        let cookies = configuration.handlesCookies ? CookieJar() : nil
        self.cookies = cookies
        let session = SessionTransport(
            transport: transport, redirectLimit: configuration.redirectLimit, cookies: cookies)
        self.pipeline = RequestPipeline(transport: session, configuration: configuration)
    }

    /// A stream of the failures of this client's requests from now on, whoever sent them: each
    /// the request as the client built it, before interceptors, and the ``APIError`` its caller
    /// catches.
    ///
    /// Each call gives a new stream; a stream stops receiving when its consumer stops iterating.
    public func failures() -> AsyncStream<ClientFailure> {
        failureBroadcast.stream { $0 }
    }

    /// A stream of the failures of this client's requests from now on, each the ``APIError`` its
    /// caller catches, without the request.
    @available(*, deprecated, message: "use failures(), whose elements carry the request beside the error (.error)")
    public func failureStream() -> AsyncStream<APIError> {
        failureBroadcast.stream { $0.error }
    }

    /// Sends `resource` and returns its decoded value (nothing for `Resource<Void>`).
    ///
    /// The same as sending it as a ``Request``; this form lets a call site name a resource by a
    /// static member, `client.send(.user(id: 42))`.
    public func send<Value>(_ resource: Resource<Value>) async throws(APIError) -> Value {
        try await response(for: resource).value
    }

    /// Sends `request`, decodes its body, finalizes and post-processes the value.
    public func send<Final>(_ request: some Request<Final>) async throws(APIError) -> Final {
        let resource = request.resourceWithParameters
        let (built, body) = try makeRequest(for: resource)
        let final = try await perform(request.prepare(request: built), body: body, options: resource.options) {
            data, response in try request.finalize(raw: decodeBody(data, response, for: resource))
        }.value
        return await request.postProcess(result: final)
    }

    /// Sends `resource` and returns the decoded value with the status and headers it came with.
    ///
    /// The resource's cache policy, or the client's, decides whether the cache answers.
    public func response<Value>(for resource: Resource<Value>) async throws(APIError) -> Response<Value> {
        let (request, body) = try makeRequest(for: resource)
        return try await perform(request, body: body, options: resource.options) { data, response in
            try decodeBody(data, response, for: resource)
        }
    }

    /// Gets a built request's response, from the cache or through the pipeline, and decodes it.
    func perform<Value>(
        _ request: HTTPRequest, body: Data?, options: RequestOptions,
        decode: (Data, HTTPResponse) throws -> Value
    ) async throws(APIError) -> Response<Value> {
        let (answer, source) = try await answer(to: request, body: body, options: options, readingCache: true)
        guard source != .network else { return try decoded(answer, from: .network, of: request, by: decode) }
        if let value = try? decode(answer.body, answer.response) {
            return Response(value, of: answer, from: source)
        }
        // An entry from before the model changed would fail the resource for as long as it is
        // kept: it is dropped, and the network asked, without a failure to report.
        await configuration.cache?.storage.removeResponse(for: CacheKey(request))
        return try decoded(
            try await self.answer(to: request, body: body, options: options, readingCache: false).0, from: .network,
            of: request, by: decode)
    }

    /// A built request's response: through the pipeline with its status checked or, when there
    /// is a cache, as the cache policy says.
    private func answer(to request: HTTPRequest, body: Data?, options: RequestOptions, readingCache: Bool)
        async throws(APIError) -> (CachedResponse, ResponseSource)
    {
        guard let cache = configuration.cache else {
            return (try await fetch(request, body: body, options: options), .network)
        }
        return try await answer(to: request, body: body, options: options, readingCache: readingCache, from: cache)
    }

    /// A response from `cache` when the policy and, under ``CachePolicy/http``, its freshness
    /// allow; otherwise the network's, asked conditionally when a stored entry has validators,
    /// and stored when the policy and the response allow.
    @inline(never)
    private func answer(
        to request: HTTPRequest, body: Data?, options: RequestOptions, readingCache: Bool, from cache: ResponseCache
    ) async throws(APIError) -> (CachedResponse, ResponseSource) {
        let policy = cachePolicy(for: request, options: options)
        let key = CacheKey(request)
        let stored = readingCache ? await storedResponse(for: request, key: key, policy: policy) : nil
        if let stored {
            switch policy {
            case .cacheElseNetwork: return (stored, .cache)
            case .http where stored.isServable(to: request, at: now()): return (stored, .cache)
            default: break
            }
        }
        let conditional = stored.flatMap { $0.conditional(request) }
        let requested = now()
        let answer: CachedResponse
        do throws(APIError) {
            let (response, data) = try await pipeline.send(conditional ?? request, body: body, options: options)
            if let stored, conditional != nil, response.status == .notModified {
                let refreshed = stored.refreshed(by: response, requested: requested, received: now())
                await cache.storage.store(refreshed, for: key)
                return (refreshed, .revalidated)
            }
            try checkStatus(response, body: data)
            answer = CachedResponse(
                response: response, body: data, requested: requested, received: now(),
                variantFields: CachedResponse.variantFields(of: request, for: response))
        } catch {
            throw report(error, for: request)
        }
        if !request.method.isSafe {
            // A change through an unsafe method makes what was read from that URL stale (RFC 9111, 4.4).
            var read = request
            read.method = .get
            await cache.storage.removeResponse(for: CacheKey(read))
        }
        let stores =
            policy == .http
            ? CachedResponse.httpStores(answer.response, for: request)
            : policy.storesResponses && CachedResponse.mayStore(answer.response, for: request)
        if stores {
            await cache.storage.store(answer, for: key)
        } else if stored != nil {
            await cache.storage.removeResponse(for: key)
        }
        return (answer, .network)
    }

    /// The pipeline's response to `request` with its status checked.
    private func fetch(_ request: HTTPRequest, body: Data?, options: RequestOptions) async throws(APIError)
        -> CachedResponse
    {
        do throws(APIError) {
            let (response, data) = try await pipeline.send(request, body: body, options: options)
            try checkStatus(response, body: data)
            return CachedResponse(unstored: response, body: data)
        } catch {
            throw report(error, for: request)
        }
    }

    /// The time HTTP dates are compared with: the wall clock when the client was made, moved on
    /// by the configuration's clock, so that a test clock ages cached responses.
    func now() -> Date {
        started + TimeInterval(stopwatch.elapsed() / .milliseconds(1)) / 1_000
    }

    // The cache and status helpers below are not inlined: in the async function that sends,
    // their temporaries would enlarge the frame that every request allocates, cache or not.

    /// The resource's own policy, or the client's for reads: a `POST` to one URL with another
    /// body is another request, which a cache filed by URL cannot tell apart.
    func cachePolicy(for request: HTTPRequest, options: RequestOptions) -> CachePolicy {
        options.cachePolicy
            ?? (request.method == .get || request.method == .head ? configuration.cachePolicy : .networkOnly)
    }

    /// The stored response to `request`, when `policy` reads the cache and the entry's `Vary`
    /// fields match the request's.
    @inline(never)
    func storedResponse(for request: HTTPRequest, key: CacheKey, policy: CachePolicy) async -> CachedResponse? {
        guard policy.readsCache, let cache = configuration.cache,
            let stored = await cache.storage.response(for: key), stored.matches(request)
        else { return nil }
        return stored
    }

    /// Throws ``APIError/unacceptableStatus(_:)`` unless the configuration accepts the status.
    @inline(never)
    func checkStatus(_ response: HTTPResponse, body data: Data) throws(APIError) {
        guard !configuration.acceptableStatuses.contains(response.status.code) else { return }
        throw .unacceptableStatus(
            Response(
                unaccepted: response, body: data,
                errorBody: configuration.errorBodyType.flatMap { decodeErrorBody($0, from: data) }))
    }

    /// Decodes a response; a step that throws an ``APIError`` (a fallback) keeps it, any other error is a decoding
    /// failure.
    func decoded<Value>(
        _ cached: CachedResponse, from source: ResponseSource, of request: HTTPRequest,
        by decode: (Data, HTTPResponse) throws -> Value
    ) throws(APIError) -> Response<Value> {
        do {
            return Response(try decode(cached.body, cached.response), of: cached, from: source)
        } catch {
            throw report(APIError(parsing: error, of: cached.body), for: request)
        }
    }

    /// Decodes `data` with the resource's own decoding step, or the default one.
    ///
    /// A function rather than a closure made per request: a closure holding the resource would
    /// be allocated on every send.
    func decodeBody<Value>(_ data: Data, _ response: HTTPResponse, for resource: Resource<Value>) throws -> Value {
        try resource.decodeValue(data, response, decoder: configuration.decoder, lossyArrays: configuration.lossyArrays)
    }

    /// Tells the delegate and the failure streams that `request` failed, then hands the error
    /// back to be thrown.
    // Not inlined, for the same reason as the cache and status helpers.
    @inline(never)
    func report(_ error: APIError, for request: HTTPRequest) -> APIError {
        configuration.delegate?.client(self, didFail: error, for: request)
        failureBroadcast.send(ClientFailure(request: request, error: error))
        return error
    }

    private func decodeErrorBody<Body: Decodable & Sendable>(_ type: Body.Type, from data: Data) -> Body? {
        try? configuration.decoder.decode(type, from: data)
    }

    /// The request `resource` describes, with the client's defaults unless it names another host.
    func makeRequest<Value>(for resource: Resource<Value>) throws(APIError) -> (HTTPRequest, Data?) {
        try resource.httpRequest(
            relativeTo: target, defaultFields: configuration.headerFields, defaultQuery: configuration.queryItems,
            encoder: configuration.encoder)
    }
}
