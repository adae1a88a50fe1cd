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

    /// Creates a client for `baseURL` sending through `transport`.
    public init(baseURL: URL, configuration: Configuration = Configuration(), transport: any Transport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.configuration = configuration
        self.transport = transport
        self.target = BaseTarget(baseURL)
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
        let (head, data) = try await exchange(resource)
        return try decoded(resource, head, data) { data, context in
            if let decode = resource.decode { return try decode(data, context) }
            if Value.self == Data.self { return data as! Value }
            if Value.self == String.self { return String(decoding: data, as: UTF8.self) as! Value }
            return try context.decoder.decode(Value.self, from: data, rootKeys: context.rootKeys)
        }
    }

    /// Sends `resource` and returns the status and headers; the body is left undecoded.
    public func response(for resource: Resource<Void>) async throws(APIError) -> Response<Void> {
        let (head, data) = try await exchange(resource)
        return try decoded(resource, head, data) { data, context in try resource.decode?(data, context) }
    }

    /// Builds, sends and checks the status of one request.
    private func exchange<Value>(_ resource: Resource<Value>) async throws(APIError) -> (HTTPResponse, Data) {
        let (request, body) = try makeRequest(for: resource)
        let logger = configuration.logger
        logger.debug("\(request.method) \(request.path ?? "/")", metadata: ["body-bytes": "\(body?.count ?? 0)"])
        let (response, data) = try await perform(request, body: body)
        logger.debug("\(response.status.code) \(request.method) \(request.path ?? "/")", metadata: ["body-bytes": "\(data.count)"])
        guard configuration.acceptableStatuses.contains(response.status.code) else {
            throw .unacceptableStatus(StatusFailure(
                status: response.status, headerFields: response.headerFields, body: data,
                decodedBody: configuration.errorBodyType.flatMap { decodeErrorBody($0, from: data) }
            ))
        }
        return (response, data)
    }

    private func decoded<Value>(
        _ resource: Resource<Value>, _ response: HTTPResponse, _ data: Data,
        by decode: (Data, DecodingContext) throws -> Value
    ) throws(APIError) -> Response<Value> {
        do {
            let value = try decode(data, DecodingContext(decoder: configuration.decoder, rootKeys: resource.rootKeys))
            return Response(value: value, status: response.status, headerFields: response.headerFields, data: data)
        } catch {
            throw .decoding(DecodingFailure(error, data: data))
        }
    }

    private func decodeErrorBody<Body: Decodable & Sendable>(_ type: Body.Type, from data: Data) -> Body? {
        try? configuration.decoder.decode(type, from: data)
    }

    private func perform(_ request: HTTPRequest, body: Data?) async throws(APIError) -> (HTTPResponse, Data) {
        do {
            guard let timeout = configuration.timeout else {
                return try await transport.send(request, body: body)
            }
            return try await withThrowingTaskGroup(of: (HTTPResponse, Data)?.self) { group in
                group.addTask { try await self.transport.send(request, body: body) }
                group.addTask {
                    try await self.configuration.clock.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw URLError(.timedOut)
                }
                return result
            }
        } catch {
            throw .transport(TransportFailure(classifying: error))
        }
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
