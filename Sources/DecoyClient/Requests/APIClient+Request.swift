import Foundation

extension APIClient {
    /// Sends `request`, decodes its body, finalizes and post-processes the value.
    public func send<R: Request>(_ request: R) async throws(APIError) -> R.Final where R.Raw: Decodable {
        let resource = request.resource
        let final = try await response(for: resource) { data, _ in
            try request.finalize(raw: decodeBody(data, for: resource))
        }.value
        return await request.postProcess(result: final)
    }

    /// Sends `request`, ignoring the body, then finalizes and post-processes.
    public func send<R: Request>(_ request: R) async throws(APIError) -> R.Final where R.Raw == Void {
        let resource = request.resource
        let final = try await response(for: resource) { data, _ in
            try request.finalize(raw: decodeBody(data, for: resource))
        }.value
        return await request.postProcess(result: final)
    }
}
