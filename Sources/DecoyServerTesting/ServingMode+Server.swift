import Decoy
import DecoyClient
import DecoyServer
public import DecoyTesting
import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension ServingMode {
    /// `URLSessionTransport` against a fresh `MockServer` on 127.0.0.1 and an ephemeral port,
    /// which `withStubbedClient` stops when its body returns or throws.
    public static let server = ServingMode("server") { registry, configuration in
        let server = MockServer(registry: registry)
        try server.start()
        let transport = ServedTransport(server: server)
        return ServedClient(
            client: APIClient(baseURL: server.baseURL, configuration: configuration, transport: transport),
            end: {
                server.stop()
                transport.base.session.finishTasksAndInvalidate()
            })
    }

    /// Every mode: the in-process ones and ``server``.
    ///
    /// ```swift
    /// @Test(arguments: ServingMode.allCases)
    /// func loadsAUser(_ mode: ServingMode) async throws { … }
    /// ```
    public static let allCases: [ServingMode] = inProcessModes + [.server]
}

/// A `URLSessionTransport` that keeps its server running for as long as a client uses it.
private struct ServedTransport: Transport {
    let server: MockServer
    let base = URLSessionTransport()

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        try await base.send(request, body: body)
    }

    func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        try await base.stream(request, body: body)
    }
}
