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
    public func response<Value: Decodable>(for resource: Resource<Value>) async throws(APIError) -> Response<Value> {
        let (request, head, data) = try await exchange(resource)
        return try decoded(resource, request, head, data) { data, context in
            if let decode = resource.decode { return try decode(data, context) }
            if Value.self == Data.self { return data as! Value }
            if Value.self == String.self { return String(decoding: data, as: UTF8.self) as! Value }
            return try context.decoder.decode(Value.self, from: data, rootKeys: context.rootKeys)
        }
    }

    /// Sends `resource` and returns the status and headers; the body is left undecoded.
    public func response(for resource: Resource<Void>) async throws(APIError) -> Response<Void> {
        let (request, head, data) = try await exchange(resource)
        return try decoded(resource, request, head, data) { data, context in try resource.decode?(data, context) }
    }

    /// Builds, sends and checks the status of one request.
    private func exchange<Value>(_ resource: Resource<Value>) async throws(APIError) -> (HTTPRequest, HTTPResponse, Data) {
        let (request, body) = try makeRequest(for: resource)
        do throws(APIError) {
            let (response, data) = try await pipeline.send(request, body: body, options: resource.options)
            guard configuration.acceptableStatuses.contains(response.status.code) else {
                throw APIError.unacceptableStatus(StatusFailure(
                    status: response.status, headerFields: response.headerFields, body: data,
                    decodedBody: configuration.errorBodyType.flatMap { decodeErrorBody($0, from: data) }
                ))
            }
            return (request, response, data)
        } catch {
            throw report(error, for: request)
        }
    }

    private func decoded<Value>(
        _ resource: Resource<Value>, _ request: HTTPRequest, _ response: HTTPResponse, _ data: Data,
        by decode: (Data, DecodingContext) throws -> Value
    ) throws(APIError) -> Response<Value> {
        do {
            let value = try decode(data, DecodingContext(decoder: configuration.decoder, rootKeys: resource.rootKeys))
            return Response(value: value, status: response.status, headerFields: response.headerFields, data: data)
        } catch {
            throw report(.decoding(DecodingFailure(error, data: data)), for: request)
        }
    }

    /// Tells the delegate and the failure streams, then hands the error back to be thrown.
    private func report(_ error: APIError, for request: HTTPRequest) -> APIError {
        let failure = ClientFailure(request: request, error: error)
        configuration.delegate?.client(self, didFail: failure)
        failures.send(failure)
        return error
    }

    private func decodeErrorBody<Body: Decodable & Sendable>(_ type: Body.Type, from data: Data) -> Body? {
        try? configuration.decoder.decode(type, from: data)
    }

    private func makeRequest<Value>(for resource: Resource<Value>) throws(APIError) -> (HTTPRequest, Data?) {
        var fields = configuration.headerFields
        for field in resource.headerFields {
            fields[field.name] = nil
        }
        fields.append(contentsOf: resource.headerFields)
        var body: Data?
        if let requestBody = resource.body {
            do {
                let (data, contentType) = try requestBody.encoded(with: configuration.encoder)
                body = data
                if let contentType, fields[.contentType] == nil { fields[.contentType] = contentType }
            } catch {
                throw .invalidRequest(reason: "the body of \(resource.method) \(resource.path) does not encode: \(error)")
            }
        }
        let path = target.path(resource.path, query: configuration.queryItems + resource.query)
        return (HTTPRequest(method: resource.method, scheme: target.scheme, authority: target.authority, path: path, headerFields: fields), body)
    }
}
