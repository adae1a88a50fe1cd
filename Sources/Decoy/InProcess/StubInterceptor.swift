public import DecoyClient
package import Foundation
package import HTTPTypes

extension StubRegistry {
    /// An ``Interceptor`` that answers the requests this registry has stubs for and passes every
    /// other request on, so that an app can mock one endpoint (say, from a file) while the rest
    /// stay live.
    ///
    /// ```swift
    /// try mocks.register(StubResponse(contentsOf: featureFlagsFile), for: .get("/config/flags"))
    /// let client = APIClient(baseURL: apiURL, configuration: .init(interceptors: [mocks.interceptor]))
    /// ```
    public var interceptor: some Interceptor {
        StubInterceptor(self)
    }
}

/// What ``StubRegistry/interceptor`` is.
package struct StubInterceptor: Interceptor {
    private let engine: StubEngine

    /// Creates an interceptor answering from `registry`.
    package init(_ registry: StubRegistry) {
        engine = registry.engine
    }

    /// Answers from a stub when one matches; otherwise calls `next`.
    package func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data) {
        let stubRequest = StubRequest(request, body: body)
        // Looked up once: the match found here is the one the engine answers with.
        guard case .matched(let match) = engine.lookup(stubRequest) else {
            return try await next(request, body)
        }
        return try await StubTransport.translate(engine.prepare(stubRequest, for: match).value())
    }
}
