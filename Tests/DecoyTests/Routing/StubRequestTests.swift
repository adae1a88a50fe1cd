import Decoy
import Testing

@Suite("A request's target, split")
struct StubRequestTests {
    @Test(arguments: [
        ("/plain", "/plain", nil),
        ("/", "/", nil),
        ("/users?page=2&sort=name", "/users", "page=2&sort=name"),
        ("/empty?", "/empty", ""),
        ("/people/Ada%20Lovelace", "/people/Ada Lovelace", nil),
        ("/a%3Fb?q=%3F", "/a?b", "q=%3F"),
        ("/bad%zzescape", "/bad%zzescape", nil),
    ] as [(String, String, String?)])
    func pathAndQuery(_ target: String, _ path: String, _ query: String?) {
        let request = StubRequest(method: .get, target: target)
        #expect(request.target == target)
        #expect(request.path == path)
        #expect(request.query == query)
    }
}
