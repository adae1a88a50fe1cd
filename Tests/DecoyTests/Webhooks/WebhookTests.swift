import Clocks
import Decoy
import DecoyClient
import DecoyStubFiles
import DecoyTesting
import Foundation
import HTTPTypes
import Testing

/// WireMock's `webhook` post-serve action: read from stub files and the admin API's JSON,
/// registered in code, sent after the answer through the registry's transport.
@Suite("Webhooks")
struct WebhookTests {
    /// A stub file whose stub sends a webhook to `url`, in WireMock 2.35.1's list form.
    static func stubFile(url: String, delay: String = "") -> String {
        """
        {
          "request": {"method": "POST", "urlPathTemplate": "/orders/{id}"},
          "response": {"status": 202, "body": "accepted"},
          "postServeActions": [{
            "name": "webhook",
            "parameters": {
              "method": "PUT",
              "url": "\(url)",
              "headers": {"Content-Type": "application/json", "X-Order": "{{originalRequest.path.[1]}}"},
              "body": "{\\"order\\": \\"{{originalRequest.path.[1]}}\\", \\"sku\\": \\"{{jsonPath originalRequest.body \
        '$.sku'}}\\"}"\(delay)
            }
          }]
        }
        """
    }

    /// A registry that receives webhooks and journals them.
    static func receiver() throws -> StubRegistry {
        let receiver = StubRegistry()
        try receiver.register(StubResponse(status: .noContent), for: .any("/callbacks/**"))
        return receiver
    }

    /// Waits, a bounded real time, until `journal` holds `count` requests.
    static func arrivals(in journal: RequestJournal, count: Int = 1) async throws -> [JournalEntry] {
        for _ in 0..<2_000 {
            if journal.entries.count >= count { return journal.entries }
            try await Task.sleep(for: .milliseconds(1))
        }
        Issue.record("\(count) webhook(s) expected, \(journal.entries.count) arrived")
        return journal.entries
    }

    @Test func aStubFilesWebhookIsSentWithItsTemplatesRenderedAgainstTheOriginalRequest() async throws {
        let folder = try ScratchFolder([
            "mappings/orders.json": Self.stubFile(url: "http://127.0.0.1:9/callbacks/{{originalRequest.path.[1]}}")
        ])
        let receiver = try Self.receiver()
        let registry = StubRegistry()
        registry.webhookTransport = StubTransport(receiver)
        try registry.load(folder: folder.url)

        let (response, body) = try await StubTransport(registry).send(
            HTTPRequest(method: .post, scheme: "http", authority: "api.test", path: "/orders/o-7"),
            body: Data(#"{"sku": "lamp"}"#.utf8))
        #expect(response.status == .accepted)
        #expect(String(decoding: body, as: UTF8.self) == "accepted")

        let sent = try #require(try await Self.arrivals(in: receiver.journal).first).request
        #expect(sent.method == .put)
        #expect(sent.target == "/callbacks/o-7")
        #expect(sent.headerFields[.contentType] == "application/json")
        #expect(sent.headerFields[HTTPField.Name("X-Order")!] == "o-7")
        #expect(sent.bodyText == #"{"order": "o-7", "sku": "lamp"}"#)
    }

    @Test func theDelayIsSleptOnTheEnginesClockAndNeverDelaysTheAnswer() async throws {
        let clock = TestClock()
        let receiver = try Self.receiver()
        let registry = StubRegistry(clock: clock)
        registry.webhookTransport = StubTransport(receiver)
        try registry.register(
            StubResponse(text: "now"),
            for: Route.get("/slow-hook").webhook(
                try Webhook(.post, url: "http://localhost/callbacks/late", delay: .fixed(.milliseconds(100)))))

        let (_, body) = try await StubTransport(registry).send(
            HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/slow-hook"), body: nil)
        #expect(String(decoding: body, as: UTF8.self) == "now")
        await waitUntilSleeping(clock)
        await clock.advance(by: .milliseconds(99))
        #expect(receiver.journal.entries.isEmpty)
        await clock.advance(by: .milliseconds(1))
        let sent = try await Self.arrivals(in: receiver.journal)
        #expect(sent.map(\.request.target) == ["/callbacks/late"])
        #expect(sent.first?.request.headerFields[.contentType] == nil)
    }

    /// A real folder's webhooks go to public hosts: its stubs still answer, without the webhook,
    /// and the warning says which host and how to allow it.
    @Test func aWebhookToAnotherHostIsLeftOutWithAWarningByFileLineAndFieldAndItsStubServes() async throws {
        let folder = try ScratchFolder(["mappings/orders.json": Self.stubFile(url: "http://example.com/callbacks")])
        let registry = StubRegistry()
        let receiver = try Self.receiver()
        registry.webhookTransport = StubTransport(receiver)
        let report = try registry.load(folder: folder.url, strict: true)
        #expect(report.stubs.count == 1)
        let warning = try #require(report.warnings.first)
        #expect(warning.file == "mappings/orders.json")
        #expect(warning.line == 8)
        #expect(warning.field == "postServeActions[0].parameters.url")
        #expect(
            warning.message == """
                this webhook is not sent: "example.com" is not a loopback host; the stub is served without it. \
                Allow the host with --webhook-allowed-host example.com (StubRegistry.webhookAllowedHosts in Swift)
                """)
        let (response, body) = try await StubTransport(registry).send(
            HTTPRequest(method: .post, scheme: "http", authority: "api.test", path: "/orders/7"), body: nil)
        #expect(response.status == .accepted)
        #expect(String(decoding: body, as: UTF8.self) == "accepted")
        #expect(registry.journal.entries.last?.route?.webhooks.isEmpty == true)

        let allowing = StubRegistry()
        allowing.webhookAllowedHosts = ["example.com"]
        let allowed = try allowing.load(folder: folder.url)
        #expect(allowed.stubs.count == 1)
        #expect(allowed.warnings.isEmpty)
        #expect(StubFolder(url: folder.url, webhookAllowedHosts: ["EXAMPLE.com"]).check().warnings.isEmpty)
    }

    @Test(arguments: ["http://127.0.0.1:9/x", "http://127.9.9.9/x", "http://localhost:8080/x", "http://[::1]:80/x"])
    func loopbackHostsAreAllowedByDefault(_ url: String) throws {
        let folder = try ScratchFolder(["mappings/orders.json": Self.stubFile(url: url)])
        #expect(StubFolder(url: folder.url).check().isValid)
    }

    @Test func aWebhookToAHostNotAllowedIsNotSent() async throws {
        let receiver = try Self.receiver()
        let registry = StubRegistry()
        registry.webhookTransport = StubTransport(receiver)
        try registry.register(
            StubResponse(text: "ok"),
            for: Route.get("/hook").webhook(
                try Webhook(.post, url: "http://{{originalRequest.query.host}}/callbacks/x")))
        let (response, _) = try await StubTransport(registry).send(
            HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/hook?host=example.com"), body: nil)
        #expect(response.status == .ok)
        let allowed = try await StubTransport(registry).send(
            HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: "/hook?host=127.0.0.1"), body: nil)
        #expect(allowed.0.status == .ok)
        // The allowed one arrives; the other, sent first, never did.
        let sent = try await Self.arrivals(in: receiver.journal)
        try await Task.sleep(for: .milliseconds(20))
        #expect(sent.count == 1 && receiver.journal.entries.count == 1)
    }

    @Test func wireMocksOlderMapFormIsRead() async throws {
        let folder = try ScratchFolder([
            "mappings/old.json": #"""
            {"request": {"url": "/old"}, "response": {"status": 200},
             "postServeActions": {"webhook": {"method": "POST", "url": "http://127.0.0.1/callbacks/old", "body": "x",
                                              "delay": {"type": "uniform", "lower": 5, "upper": 10}}}}
            """#
        ])
        let registry = StubRegistry()
        let route = try #require(try registry.load(folder: folder.url).stubs.first?.route)
        #expect(
            route.webhooks == [
                try Webhook(
                    .post, url: "http://127.0.0.1/callbacks/old", body: "x",
                    delay: .uniform(.milliseconds(5)...(.milliseconds(10))))
            ])
    }

    @Test(arguments: [
        (#"[{"name": "notifier", "parameters": {}}]"#, "postServeActions[0]", "only webhook is"),
        (#"[{"parameters": {"url": "http://127.0.0.1/"}}]"#, "postServeActions[0]", "needs \"name\""),
        (#"[{"name": "webhook"}]"#, "postServeActions[0]", "needs \"parameters\""),
        (
            #"[{"name": "webhook", "parameters": {"method": "POST"}}]"#, "postServeActions[0].parameters",
            "needs \"url\""
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "body": "{{originalRequest.nope}}"}}]"#,
            "postServeActions[0].parameters.body", "originalRequest has no part \"nope\""
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "body": "{{request.url}}"}}]"#,
            "postServeActions[0].parameters.body", "values start at originalRequest"
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "headers": {"X-A": "{{#if}}"}}}]"#,
            "postServeActions[0].parameters.headers", "in header X-A:"
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "ftp://127.0.0.1/"}}]"#, "postServeActions[0].parameters.url",
            "absolute http or https URL"
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "delay": {"type": "fixed"}}}]"#,
            "postServeActions[0].parameters.delay", "needs \"milliseconds\""
        ),
        (
            #"[{"name": "webhook", "parameters": {"url": "http://127.0.0.1/", "base64Body": "eA=="}}]"#,
            "postServeActions[0].parameters.base64Body", "unknown field"
        ),
    ])
    func badWebhooksAreErrorsNamingTheirField(_ actions: String, _ field: String, _ message: String) throws {
        let folder = try ScratchFolder([
            "bad.json": #"{"request": {"url": "/bad"}, "response": {"status": 200}, "postServeActions": \#(actions)}"#
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(report.errors.map(\.field) == [field], "\(report.errors)")
        #expect(report.errors.first?.message.contains(message) == true, "\(report.errors)")
    }

    @Test func aWebhookRegisteredInCodeIsListedAndReadBackByTheAdminAPI() throws {
        let webhook = try Webhook(
            .post, url: "http://127.0.0.1:9/callbacks/{{originalRequest.path.[1]}}",
            headerFields: [.contentType: "text/plain"], body: "done", delay: .fixed(.milliseconds(250)))
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "ok"), for: Route.post("/jobs/{id}").webhook(webhook))
        let json = try #require(registry.mappings.first?.json)
        #expect(json.contains(#""postServeActions":[{"name":"webhook","parameters":{"#))

        let copy = StubRegistry()
        let added = try copy.addMapping(Data(json.utf8))
        #expect(added.route.webhooks == [webhook])
    }

    @Test func removingStubsLikeARequestIgnoresTheirWebhooks() throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(text: "ok"),
            for: Route.get("/hooked").webhook(try Webhook(.post, url: "http://localhost/callbacks")))
        try registry.register(StubResponse(text: "other"), for: .get("/other"))
        let removed = try registry.removeMappings(
            like: Data(#"{"request": {"method": "GET", "urlPathTemplate": "/hooked"}, "response": {}}"#.utf8))
        #expect(removed.map(\.route.path) == ["/hooked"])
        #expect(registry.routes.map(\.path) == ["/other"])
    }

    @Test func theEncoderRefusesNothingItCanWrite() throws {
        let webhook = try Webhook(
            .delete, url: "http://localhost/a", delay: .lognormal(median: .milliseconds(20), sigma: 0.5))
        let registry = StubRegistry()
        try registry.register(StubResponse(text: "ok"), for: Route.get("/l").webhook(webhook))
        let copy = StubRegistry()
        #expect(try copy.addMapping(Data(registry.mappings[0].json.utf8)).route.webhooks == [webhook])
    }

    @Test func aMalformedTemplateInCodeNamesItsPart() {
        #expect(throws: DecoyError.self) { try Webhook(.post, url: "http://localhost/", body: "{{#if}}") }
        do {
            _ = try Webhook(.post, url: "http://localhost/", headerFields: [.accept: "{{request.url}}"])
        } catch {
            #expect(error.reason.hasPrefix("in header Accept:"))
        }
    }
}
