import DecoyClient
import DecoyOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@Suite("OpenAPITransport")
struct OpenAPITransportTests {
    /// Keeps what it was asked to send and answers 204.
    final class Recorder: Transport {
        let sent = Mutex<(HTTPRequest, Data?)?>(nil)

        func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
            sent.withLock { $0 = (request, body) }
            return (HTTPResponse(status: .noContent), Data())
        }
    }

    @Test(arguments: [
        ("https://api.example.com", "api.example.com", "/users?limit=2"),
        ("https://api.example.com/v1/", "api.example.com", "/v1/users?limit=2"),
        ("http://127.0.0.1:8080/v1", "127.0.0.1:8080", "/v1/users?limit=2"),
        ("http://[::1]:8080", "[::1]:8080", "/users?limit=2"),
    ])
    func theServerURLGivesTheSchemeAuthorityAndFirstPartOfThePath(base: String, authority: String, path: String)
        async throws
    {
        let recorder = Recorder()
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/users?limit=2")
        let (response, body) = try await OpenAPITransport(transport: recorder)
            .send(request, body: HTTPBody("{}"), baseURL: URL(string: base)!, operationID: "listUsers")
        let sent = try #require(recorder.sent.withLock { $0 })
        #expect(sent.0.scheme == URL(string: base)!.scheme)
        #expect(sent.0.authority == authority)
        #expect(sent.0.path == path)
        #expect(sent.1 == Data("{}".utf8))
        #expect(response.status == .noContent)
        #expect(try await Data(collecting: try #require(body), upTo: 10) == Data())
    }
}
