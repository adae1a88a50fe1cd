package import Decoy
package import DecoyClient
import DecoyServer
import DecoyServerTesting
package import DecoyTesting
package import Foundation
package import HTTPTypes

#if canImport(FoundationNetworking)
    package import FoundationNetworking
#endif

/// What a client saw of one request, whichever way it was served: a response, or the category of
/// its failure. Decoy's own tests compare outcomes across every ``ServingMode``, and read the admin
/// API's answers as outcomes too.
package enum Outcome: Equatable, Sendable, CustomStringConvertible {
    /// A response: its status, the header fields kept of it, and its body.
    case response(status: Int, headerFields: HTTPFields, body: Data)
    /// No response: the transport failed.
    case failure(TransportFailure)

    /// A response whose kept fields are `headers`, in the order ``of(_:on:keeping:)`` keeps them.
    package static func response(status: Int, headers: [String: String], body: String) -> Outcome {
        .response(
            status: status,
            headerFields: HTTPFields(
                headers.sorted { $0.key < $1.key }.map { HTTPField(name: HTTPField.Name($0.key)!, value: $0.value) }),
            body: Data(body.utf8))
    }

    /// The status; 0 for a failure, which has none.
    package var status: Int {
        guard case .response(let status, _, _) = self else { return 0 }
        return status
    }

    /// The header fields; none for a failure.
    package var headerFields: HTTPFields {
        guard case .response(_, let fields, _) = self else { return [:] }
        return fields
    }

    /// The body; empty for a failure.
    package var body: Data {
        guard case .response(_, _, let body) = self else { return Data() }
        return body
    }

    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as a JSON object; empty when it is not one.
    package var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }

    /// The first error title of a WireMock-style error body.
    package var errorTitle: String? { (json["errors"] as? [[String: Any]])?.first?["title"] as? String }

    package var description: String {
        switch self {
        case .response(let status, let fields, _): "\(status) \(fields) \(text.debugDescription)"
        case .failure(let category): "failure \(category)"
        }
    }

    /// Sends `resource` and keeps the status, the header fields named `names` and the body, or the
    /// failure's category.
    package static func of(_ resource: Resource<Void>, on client: APIClient, keeping names: [String]) async -> Outcome {
        do {
            let response = try await client.response(for: resource)
            return .response(
                status: response.status.code, headers: pick(names, from: response.headerFields),
                body: String(decoding: response.body, as: UTF8.self))
        } catch .unacceptableStatus(let failure) {
            return .response(
                status: failure.status.code, headers: pick(names, from: failure.headerFields),
                body: String(decoding: failure.body, as: UTF8.self))
        } catch .transport(let failure, _) {
            return .failure(failure)
        } catch {
            return .failure(.other)
        }
    }

    private static func pick(_ names: [String], from fields: HTTPFields) -> [String: String] {
        Dictionary(uniqueKeysWithValues: names.compactMap { name in fields[HTTPField.Name(name)!].map { (name, $0) } })
    }

    /// The outcome of a URLSession load: every header field and the body.
    package init(_ data: Data, _ response: URLResponse) {
        let http = response as! HTTPURLResponse
        var fields = HTTPFields()
        for case (let name as String, let value as String) in http.allHeaderFields {
            fields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        self = .response(status: http.statusCode, headerFields: fields, body: data)
    }
}

extension ServingMode {
    /// One exchange served this way, as a plain client sees it: `StubTransport` called directly,
    /// or a plain `URLSession` answered by `StubURLProtocol` or by a fresh `MockServer`. Throws
    /// what the transport throws.
    package func exchange(
        _ registry: StubRegistry, _ method: HTTPRequest.Method = .get, _ target: String, headerFields: HTTPFields = [:],
        body: Data? = nil
    ) async throws -> Outcome {
        switch self {
        case .inProcess:
            let request = HTTPRequest(
                method: method, scheme: "https", authority: "api.test", path: target, headerFields: headerFields)
            let (response, data) = try await StubTransport(registry).send(request, body: body)
            return .response(status: response.status.code, headerFields: response.headerFields, body: data)
        case .urlProtocol:
            return try await Self.load(
                method, URL(string: "https://api.test" + target)!, headerFields, body, on: .stubbed(by: registry))
        case .server:
            return try await withMockServer(registry: registry) { server in
                try await Self.load(
                    method, URL(string: server.baseURL.absoluteString + target)!, headerFields, body,
                    on: URLSession(configuration: .ephemeral))
            }
        default:
            preconditionFailure("no exchange for the serving mode \(self)")
        }
    }

    private static func load(
        _ method: HTTPRequest.Method, _ url: URL, _ headerFields: HTTPFields, _ body: Data?, on session: URLSession
    ) async throws -> Outcome {
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for field in headerFields { request.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
        request.httpBody = body
        let (data, response) = try await session.data(for: request)
        return Outcome(data, response)
    }

    /// A client this way answers from `registry`, which keeps the serving for as long as it is used.
    /// Throws what starting a server throws.
    package func client(_ registry: StubRegistry, configuration: APIClient.Configuration = .init()) throws -> APIClient
    {
        try serve(registry, configuration).client
    }
}
