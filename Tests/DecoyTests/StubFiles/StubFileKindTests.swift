import Foundation
import HTTPTypes
import Testing

@testable import Decoy
@testable import DecoyStubFiles

/// A kind of stub only this test has, added where docs/architecture.md says a new kind goes: its
/// `StubFileEncodable` conformance, and its entry in the stub-file module's table of kinds.
private struct EchoStub: Stub, StubFileEncodable {
    /// How a stub file reads it: `"echoHeader"`, beside its `response`.
    static let kind = StubFileKind(fields: ["echoHeader"]) { stub, next in
        guard let node = stub.object["echoHeader"] else { return next() }
        guard let (_, responseNode) = stub.answer, let name = node.text().flatMap({ HTTPField.Name($0) }),
            let response = stub.responses.decode(responseNode) as? StubResponse
        else { return nil }
        return EchoStub(response: response, header: name)
    }

    let response: StubResponse
    /// The request's header field whose value is the body.
    let header: HTTPField.Name

    func resolve(for request: StubRequest) -> StubResolution {
        var echoed = response
        echoed.body = Data((request.headerFields[header] ?? "").utf8)
        return .response(echoed)
    }

    func stubFileMembers() throws(DecoyError) -> [String: JSONValue] {
        ["response": try StubEncoder.response(response), "echoHeader": .string(header.rawName)]
    }
}

@Suite("Stub files: kinds")
struct StubFileKindTests {
    /// The table with `EchoStub` where a kind chosen by a field of its own goes: before `response`.
    static let kinds = Array(StubFileKind.all.dropLast()) + [EchoStub.kind, .response]
    static let header = HTTPField.Name("X-Name")!

    @Test("a new kind is written and read back once it conforms and is in the table of kinds")
    func newKindRoundTrips() throws {
        let original = EchoStub(response: StubResponse(status: .accepted), header: Self.header)
        let data = try JSONEncoder().encode(JSONValue.object(try StubEncoder.mapping(original, for: .get("/echo"))))
        let read = try StubDocument.stub(data, source: "test", folder: nil, kinds: Self.kinds).get()
        let echo = try #require(read.stub as? EchoStub)
        #expect(echo.header == Self.header)
        guard case .response(let response) = echo.resolve(for: Self.request) else {
            Issue.record("an echo answers at once")
            return
        }
        #expect(response.status == .accepted)
        #expect(response.body == Data("Ada".utf8))
    }

    @Test("a new kind composes with the kinds around it: a failure rate wraps it")
    func newKindInsideAFailureRate() throws {
        let echo = EchoStub(response: StubResponse(status: .accepted), header: Self.header)
        let failing = FailingStub(failing: 0, with: StubResponse(status: .internalServerError), otherwise: echo)
        let data = try JSONEncoder().encode(JSONValue.object(try StubEncoder.mapping(failing, for: .get("/echo"))))
        let read = try StubDocument.stub(data, source: "test", folder: nil, kinds: Self.kinds).get()
        let wrapped = try #require(read.stub as? FailingStub)
        #expect((wrapped.otherwise as? EchoStub)?.header == Self.header)
    }

    @Test("without its entry in the table, a stub file does not know the kind's field")
    func tableDecides() throws {
        let echo = EchoStub(response: StubResponse(status: .accepted), header: Self.header)
        let data = try JSONEncoder().encode(JSONValue.object(try StubEncoder.mapping(echo, for: .get("/echo"))))
        let error = #expect(throws: DecoyError.self) {
            try StubDocument.stub(data, source: "test", folder: nil).get()
        }
        #expect(error?.description.contains("echoHeader") == true)
    }

    private static let request = StubRequest(method: .get, target: "/echo", headerFields: [header: "Ada"])
}
