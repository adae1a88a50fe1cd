import Foundation
import HTTPTypes
import Testing

@testable import Decoy

@Suite("A request's target, split")
struct StubRequestTests {
    @Test(
        arguments: [
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

    /// ASCII paths are split by bytes; the rest by characters, where a `/` followed by a
    /// combining mark is one character and no separator, as it always was.
    @Test(
        arguments: [
            ("/", []),
            ("/a", ["a"]),
            ("/a//b/", ["a", "", "b", ""]),
            ("/stüb/9", ["stüb", "9"]),
            ("/a/\u{301}b/c", ["a/\u{301}b", "c"]),
        ] as [(String, [String])])
    func pathSegments(_ path: String, _ segments: [String]) {
        #expect(StubRequest(method: .get, target: path).pathSegments == segments.map { Substring($0) })
    }

    /// A query value read by name is the value of every item of that name, decoded alike.
    @Test(
        arguments: [
            ("/q?a=1&a=2&b", "a", ["1", "2"]), ("/q?a=1&a=2&b", "b", [""]),
            ("/q?d+e=f+g&d%20e=%3D", "d e", ["f g", "="]),
            ("/q?=x&&a==b", "", ["x"]), ("/q?=x&&a==b", "a", ["=b"]), ("/q?a%zz=1", "a%zz", ["1"]), ("/q", "a", []),
            ("/q?", "a", []),
        ] as [(String, String, [String])])
    func queryValuesByName(_ target: String, _ name: String, _ values: [String]) {
        let request = StubRequest(method: .get, target: target)
        #expect(request.queryValues(name) == values)
        #expect(request.queryItems.filter { $0.name == name }.map { $0.value ?? "" } == values)
    }
}

@Suite("A request's header fields as they came off the wire")
struct WireHeaderFieldsTests {
    private static let raw = [("Accept", "text/plain"), ("bad name", "dropped"), ("X-Twice", "1"), ("x-twice", "2")]

    /// Parsed on first read: names that are not tokens are left out, order and repeats kept.
    @Test func parsedOnFirstRead() {
        let request = StubRequest(method: .get, target: "/", rawHeaderFields: Self.raw, body: .init())
        let fields = request.headerFields
        #expect(fields.map(\.name.rawName) == ["Accept", "X-Twice", "x-twice"])
        #expect(fields[values: HTTPField.Name("X-Twice")!] == ["1", "2"])
        #expect(request.headerFields == fields)
    }

    /// Threads reading them first at once all get the same fields.
    @Test func firstReadsAtOnceAgree() async {
        let request = StubRequest(method: .get, target: "/", rawHeaderFields: Self.raw, body: .init())
        let reads = await withTaskGroup(of: HTTPFields.self) { group in
            for _ in 0..<8 { group.addTask { request.headerFields } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reads.count == 8)
        #expect(reads.allSatisfy { $0 == reads[0] && $0.count == 3 })
    }
}
