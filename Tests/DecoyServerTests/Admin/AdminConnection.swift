import Decoy
import DecoyServer
import DecoyServerTesting
import DecoyTestSupport
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Plain HTTP to a server's admin API and its stubs, as a script in any language would send it.
struct AdminConnection {
    /// Runs `body` against a server of `registry` whose admin API is open as `access` says.
    static func withServer(
        _ registry: StubRegistry = StubRegistry(), access: MockServer.AdminAccess = .open,
        _ body: (AdminConnection, StubRegistry) async throws -> Void
    ) async throws {
        try await withMockServer(registry: registry, configuration: .init(adminAccess: access)) { server in
            try await body(AdminConnection(server), registry)
        }
    }

    let server: MockServer
    var headers: [String: String] = [:]
    private let session = URLSession(configuration: .ephemeral)

    init(_ server: MockServer, headers: [String: String] = [:]) {
        self.server = server
        self.headers = headers
    }

    /// `method` to `/__admin` + `path`.
    func admin(_ method: String, _ path: String, _ body: String? = nil) async throws -> Outcome {
        try await send(method, "/__admin" + path, body)
    }

    /// `method` to `target` on the server.
    func send(_ method: String, _ target: String, _ body: String? = nil) async throws -> Outcome {
        var request = URLRequest(url: URL(string: server.baseURL.absoluteString + target)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return Outcome(data, response)
    }
}
