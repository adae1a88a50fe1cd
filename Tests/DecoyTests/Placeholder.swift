import Decoy
import DecoyClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Test func smoke() async throws {
    let registry = StubRegistry()
    try registry.register(StubResponse(json: #"{"id": 7}"#), for: .get("/users/{id}"))
    struct User: Decodable { let id: Int }
    let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport(registry))
    let user: User = try await client.send(.get("/users/7"))
    #expect(user.id == 7)
    let session = URLSession.stubbed(by: registry)
    let (data, response) = try await session.data(from: URL(string: "https://x.test/users/9")!)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == #"{"id": 7}"#)
    let (miss, missResponse) = try await session.data(from: URL(string: "https://x.test/user/9")!)
    #expect((missResponse as? HTTPURLResponse)?.statusCode == 404)
    print(String(decoding: miss, as: UTF8.self))
}
