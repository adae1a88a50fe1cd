import DecoyClient
import Foundation
import HTTPTypes

/// What a client saw of one request: a response, or a failure's category.
enum Outcome: Equatable, CustomStringConvertible, Sendable {
    case response(status: Int, headers: [String: String], body: String)
    case failure(TransportFailure.Category)

    var description: String {
        switch self {
        case .response(let status, let headers, let body): "\(status) \(headers) \(body.debugDescription)"
        case .failure(let category): "failure \(category)"
        }
    }

    /// Sends `resource` and keeps the status, the named header fields and the body, or the failure.
    static func of(_ resource: Resource<Void>, on client: APIClient, keeping names: [String]) async -> Outcome {
        do {
            let response = try await client.response(for: resource)
            return .response(response, keeping: names)
        } catch .unacceptableStatus(let failure) {
            return .response(status: failure.status.code, headers: pick(names, from: failure.headerFields), body: failure.bodyText)
        } catch .transport(let failure) {
            return .failure(failure.category)
        } catch {
            return .failure(.other)
        }
    }

    private static func response(_ response: Response<Void>, keeping names: [String]) -> Outcome {
        .response(status: response.status.code, headers: pick(names, from: response.headerFields), body: String(decoding: response.body, as: UTF8.self))
    }

    private static func pick(_ names: [String], from fields: HTTPFields) -> [String: String] {
        Dictionary(uniqueKeysWithValues: names.compactMap { name in fields[HTTPField.Name(name)!].map { (name, $0) } })
    }
}
