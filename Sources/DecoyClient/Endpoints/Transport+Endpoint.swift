import Foundation
import HTTPTypes

extension Transport {
    /// Loads `endpoint` with no ``APIClient``: sends it, accepts a `2xx` status, and parses the body.
    public func load<E: Endpoint>(_ endpoint: E) async throws(APIError) -> E.Output {
        let (request, body) = try endpoint.httpRequest()
        let response: HTTPResponse
        let data: Data
        do {
            (response, data) = try await send(request, body: body)
        } catch {
            throw .transport(TransportFailure(classifying: error))
        }
        guard (200..<300).contains(response.status.code) else {
            throw .unacceptableStatus(
                StatusFailure(status: response.status, headerFields: response.headerFields, body: data))
        }
        do {
            return try endpoint.parse(data: data, response: response)
        } catch {
            throw APIError(parsing: error, of: data)
        }
    }
}
