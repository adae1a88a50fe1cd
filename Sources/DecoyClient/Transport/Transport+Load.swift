import Foundation
import HTTPTypes

extension Transport {
    /// Loads `request` with no ``APIClient``: sends its resource, which must be built with a
    /// whole URL, accepts a `2xx` status, decodes the body with a default `JSONDecoder`, then
    /// finalizes and post-processes the value as a client does.
    public func load<Final>(_ request: some Request<Final>) async throws(APIError) -> Final {
        let resource = request.resourceWithParameters
        let (built, body) = try resource.httpRequest(
            relativeTo: nil, defaultFields: [:], defaultQuery: [], encoder: JSONEncoder())
        let response: HTTPResponse
        let data: Data
        do {
            (response, data) = try await send(request.prepare(request: built), body: body)
        } catch {
            throw APIError(transporting: error)
        }
        guard (200..<300).contains(response.status.code) else {
            throw .unacceptableStatus(Response(unaccepted: response, body: data))
        }
        let final: Final
        do {
            final = try request.finalize(
                raw: resource.decodeValue(data, response, decoder: JSONDecoder(), lossyArrays: false))
        } catch {
            throw APIError(parsing: error, of: data)
        }
        return await request.postProcess(result: final)
    }
}
