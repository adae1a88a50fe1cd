import Foundation
import HTTPTypes
import Testing

@testable import Decoy
@testable import DecoyStubFiles

/// `response.events` in stub files: read, checked field by field, and written back by the encoder.
@Suite("Stub files: event streams")
struct EventStreamFileTests {
    static let chat = #"""
        {"request": {"method": "POST", "urlPath": "/v1/chat/completions"}, "response": {"status": 200, \#
        "headers": {"Content-Type": "text/event-stream"}, "events": [{"id": "1", "event": "delta", "data": \#
        {"delta": "Hel"}, "delayMilliseconds": 50}, {"data": "lo", "retry": 3000, "delayDistribution": \#
        {"type": "uniform", "lower": 10, "upper": 20}}, {"comment": "done"}], "eventsThen": \#
        "CONNECTION_RESET_BY_PEER", "eventsRepeat": 2}}
        """#

    @Test func anEventStreamIsReadAsTheEventsAndWrittenBackTheSame() throws {
        let definition = try StubDocument.stub(Data(Self.chat.utf8), source: "chat.json", folder: nil).get()
        guard case .response(let response) = definition.stub.resolve(for: StubRequest(method: .post, target: "/")),
            let stream = response.events
        else {
            Issue.record("not an event stream")
            return
        }
        #expect(stream.events.first?.data == #"{"delta":"Hel"}"#)
        #expect(stream.events.first?.delay == .fixed(.milliseconds(50)))
        #expect(stream.ending == .fault(.connectionReset))
        #expect(stream.repeats == .times(2))
        let written = try StubEncoder.mapping(definition.stub, for: definition.pattern.route)
        let reread = try StubDocument.stub(
            JSONEncoder().encode(JSONValue.object(written)), source: "written", folder: nil
        ).get()
        guard case .response(let again) = reread.stub.resolve(for: StubRequest(method: .post, target: "/")) else {
            Issue.record("not a response")
            return
        }
        #expect(again.events == stream)
    }

    @Test func eachEventsDataIsATemplateOfTheRequest() throws {
        let document = #"""
            {"request": {"urlPath": "/greet"}, "response": {"transformers": ["response-template"], \#
            "events": [{"data": "hello {{request.query.name}}"}, {"data": {"who": "{{request.query.name}}"}}]}}
            """#
        let definition = try StubDocument.stub(Data(document.utf8), source: "greet.json", folder: nil).get()
        guard
            case .response(let response) = definition.stub.resolve(
                for: StubRequest(method: .get, target: "/greet?name=Ada"))
        else {
            Issue.record("not a response")
            return
        }
        #expect(String(decoding: response.body, as: UTF8.self) == "data: hello Ada\n\ndata: {\"who\":\"Ada\"}\n\n")
        #expect(response.events?.events.map(\.data) == ["hello Ada", #"{"who":"Ada"}"#])
    }

    @Test func aStubMadeInCodeIsWrittenAsAStubFile() throws {
        let stub = try EventStreamStub(
            events: [ServerEvent(event: "tick", data: "1", delay: .fixed(.seconds(1)))], then: .stayOpen,
            repeats: .forever)
        let written = try StubEncoder.mapping(stub, for: .get("/ticks"))
        let response = written["response"]
        #expect(
            response
                == .object([
                    "status": .number(200), "statusMessage": .string("OK"),
                    "headers": .object([
                        "Content-Type": .string("text/event-stream"), "Cache-Control": .string("no-cache"),
                    ]),
                    "events": .array([
                        .object(["event": .string("tick"), "data": .string("1"), "delayMilliseconds": .number(1_000)])
                    ]),
                    "eventsThen": .string("stayOpen"), "eventsRepeat": .string("forever"),
                ]))
    }

    @Test func everyProblemIsReportedAtItsField() throws {
        let folder = try ScratchFolder([
            "bad.json": #"""
            {"request": {"method": "GET", "urlPath": "/e"},
             "response": {"body": "x", "events": [{"data": 1.5, "delayMilliseconds": -1},
                                                  {"name": "tick"}],
                          "eventsThen": "linger", "eventsRepeat": 0}}
            """#
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(
            report.errors.map(\.description) == [
                #"bad.json:2:23: response.body: an event stream's events are its body: give "events" or "body", not both"#,
                #"bad.json:2:74: response.events[0].delayMilliseconds: expected a whole number of milliseconds, found -1"#,
                #"""
                bad.json:3:40: response.events[1].name: unknown field; expected one of id, event, data, retry, comment, \#
                delayMilliseconds, delayDistribution
                """#,
                #"""
                bad.json:4:29: response.eventsThen: expected close, stayOpen or a fault (CONNECTION_RESET_BY_PEER, \#
                EMPTY_RESPONSE, MALFORMED_RESPONSE_CHUNK, RANDOM_DATA_THEN_CLOSE, TIMEOUT), found "linger"
                """#,
                #"bad.json:4:55: response.eventsRepeat: expected a number of passes from 1, or "forever", found 0"#,
            ])
    }

    /// Events past the limit are refused by their count, before any is read (a million are refused
    /// the same way, only more slowly parsed).
    @Test func tooManyEventsAreRefused() throws {
        let events = Array(repeating: #"{"data": "x"}"#, count: 100_001).joined(separator: ",")
        let folder = try ScratchFolder([
            "flood.json": #"{"request": {"urlPath": "/flood"}, "response": {"events": ["# + events + "]}}"
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(
            report.errors.map(\.description) == [
                "flood.json:1:59: response.events: an event stream has at most 100000 events, not 100001"
            ])
    }
}
