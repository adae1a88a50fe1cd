extension APIClient {
    /// Sends `endpoint` to its own URL through this client's interceptors, retries, logging,
    /// status check and cache, then parses the body with the endpoint.
    ///
    /// The client's default header fields and query items are not added: they belong to the
    /// API at the base URL, and an endpoint may be another host.
    public func send<E: Endpoint>(_ endpoint: E) async throws(APIError) -> E.Output {
        let (request, body) = try endpoint.httpRequest()
        return try await perform(request, body: body, options: RequestOptions()) { data, response in
            try endpoint.parse(data: data, response: response)
        }.value
    }
}
