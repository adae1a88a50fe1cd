public import DecoyClient
public import Foundation
public import HTTPTypes

/// An ``Interceptor`` that answers the requests a registry has stubs for and passes every other
/// request on, so that an app can mock one endpoint (say, from a file) while the rest stay live.
///
/// ```swift
/// try mocks.register(StubResponse(contentsOf: featureFlagsFile), for: .get("/config/flags"))
/// let client = APIClient(baseURL: apiURL, configuration: .init(interceptors: [StubInterceptor(mocks)]))
/// ```
public struct StubInterceptor: Interceptor {
    private let transport: StubTransport

    /// Creates an interceptor answering from `registry`.
    public init(_ registry: StubRegistry) {
        transport = StubTransport(registry)
    }

    /// Answers from a stub when one matches; otherwise calls `next`.
    public func intercept(_ request: HTTPRequest, body: Data?, next: Next) async throws -> (HTTPResponse, Data) {
        guard case .matched = transport.engine.provider.lookup(StubRequest(request, body: body)) else {
            return try await next(request, body)
        }
        return try await transport.send(request, body: body)
    }
}
