import Clocks
import Decoy
import Foundation
import HTTPTypes
import Testing

@testable import DecoyStubFiles

/// Stub files and admin bodies written to hurt: each is refused at load with an error that names
/// the file and field, in bounded time, and nothing a file allows can crash a later request.
@Suite("Stub files: hostile input")
struct HostileStubFileTests {
    /// Nine levels of anchors, each a list of nine aliases of the one before: 9⁹ values once expanded.
    static let aliasBomb: String = {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\nrequest: {urlPath: /bomb}\nresponse: {jsonBody: *a9}\n"
    }()

    @Test func anAliasBombIsRefusedBeforeItIsExpanded() throws {
        let folder = try ScratchFolder(["bomb.yaml": Self.aliasBomb])
        let started = ContinuousClock.now
        let report = StubFolder(url: folder.url).check()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            report.errors.map(\.description) == [
                "bomb.yaml: aliases repeat more than 100000 values in this file; write them out, or repeat fewer"
            ])
    }

    /// Yams expands an alias used as a mapping key while it composes (to compare keys), so the
    /// count has to come before it does.
    @Test func anAliasBombAsAMappingKeyIsRefusedBeforeYamsExpandsIt() throws {
        let keys = Self.aliasBomb.replacingOccurrences(
            of: "response: {jsonBody: *a9}", with: "response: {jsonBody: {? *a9 : 1, ? *a8 : 2}}")
        let folder = try ScratchFolder(["keys.yaml": keys])
        let started = ContinuousClock.now
        let report = StubFolder(url: folder.url).check()
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            report.errors.map(\.description) == [
                "keys.yaml: aliases repeat more than 100000 values in this file; write them out, or repeat fewer"
            ])
    }

    @Test func anAliasBombInAnAdminBodyIsRefused() {
        // The admin API reads JSON with the YAML parser, so anchors reach it too.
        let levels = (0...9).map { level in
            "&a\(level) [" + Array(repeating: level == 0 ? "\"x\"" : "*a\(level - 1)", count: 9).joined(separator: ", ")
                + "]"
        }
        let body =
            #"{"request": {"urlPath": "/bomb"}, "response": {"jsonBody": ["# + levels.joined(separator: ", ") + "]}}"
        let registry = StubRegistry()
        let started = ContinuousClock.now
        let error = #expect(throws: DecoyError.self) { try registry.addMapping(Data(body.utf8)) }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            error?.stubFileErrors.map(\.message) == [
                "aliases repeat more than 100000 values in this file; write them out, or repeat fewer"
            ])
        #expect(registry.mappings.isEmpty)
    }

    /// A 100 KB scalar aliased 10,000 times: few values, but a gigabyte of text once expanded.
    static func largeScalarAliased(asJSON: Bool) -> String {
        let large = String(repeating: "x", count: 100_000)
        let aliases = Array(repeating: "*big", count: 10_000).joined(separator: ", ")
        return asJSON
            ? #"{"request": {"urlPath": "/big"}, "response": {"jsonBody": [&big "\#(large)", \#(aliases)]}}"#
            : "big: &big \(large)\nrequest: {urlPath: /big}\nresponse: {jsonBody: [\(aliases)]}\n"
    }

    @Test func aLargeScalarAliasedManyTimesIsRefusedBeforeItIsExpanded() throws {
        let folder = try ScratchFolder(["big.yaml": Self.largeScalarAliased(asJSON: false)])
        let started = ContinuousClock.now
        let report = StubFolder(url: folder.url).check()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(2), "\(elapsed)")
        #expect(
            report.errors.map(\.description) == [
                """
                big.yaml: aliases make this file stand for more than 10485760 bytes of text; write them out, or \
                repeat fewer
                """
            ])
    }

    @Test func aLargeScalarAliasedManyTimesInAnAdminBodyIsRefused() {
        let registry = StubRegistry()
        let started = ContinuousClock.now
        let error = #expect(throws: DecoyError.self) {
            try registry.addMapping(Data(Self.largeScalarAliased(asJSON: true).utf8))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(2), "\(elapsed)")
        #expect(
            error?.stubFileErrors.map(\.message) == [
                "aliases make this file stand for more than 10485760 bytes of text; write them out, or repeat fewer"
            ])
        #expect(registry.mappings.isEmpty)
    }

    /// The byte bound counts scalar text through anchors and aliases, and grows with the file.
    @Test func theByteBoundCountsEachAliasAndGrowsWithTheFile() {
        let text = "a: &a [xxxx, yyyy]\nb: [*a, *a]\n"
        // "a", "xxxx", "yyyy", "b", then the anchor's 8 bytes twice: 26 bytes.
        #expect(AliasBound.excess(in: text, values: 100, bytes: 26) == nil)
        #expect(AliasBound.excess(in: text, values: 100, bytes: 25) == .bytes)
        #expect(AliasBound.byteLimit(forFileOf: 1_000) == 10 * 1024 * 1024)
        #expect(AliasBound.byteLimit(forFileOf: 4_000_000) == 16_000_000)
    }

    @Test func aliasesWithinTheBoundStillLoad() throws {
        let folder = try ScratchFolder([
            "shared.yaml": """
            - request: &get {method: GET, urlPath: /a}
              response: &ok {status: 200, body: ok}
            - request: {method: GET, urlPath: /b}
              response: *ok
            """
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(report.errors.isEmpty)
        #expect(report.stubs.count == 2)
    }

    @Test func tooManyHeaderValuesAreRefusedNamingTheField() throws {
        let values = Array(repeating: "\"v\"", count: 65_535).joined(separator: ",")
        let folder = try ScratchFolder([
            "many.json": #"{"request": {"urlPath": "/h"}, "response": {"headers": {"X-Many": [\#(values)]}}}"#
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(
            report.errors.map(\.description) == [
                """
                many.json:1:56: response.headers: a response has at most 1000 header values and 64 KiB of header \
                fields
                """
            ])
    }

    @Test(arguments: [
        (
            #"{"type": "lognormal", "median": 80, "sigma": 1000}"#,
            #"response.delayDistribution: "sigma" is a number from 0 to 4"#
        ),
        (
            #"{"type": "lognormal", "median": 80, "sigma": -1}"#,
            #"response.delayDistribution: "sigma" is a number from 0 to 4"#
        ),
        (
            #"{"type": "lognormal", "median": 300001, "sigma": 1}"#,
            #"response.delayDistribution: "median" is at most 300000 ms"#
        ),
        (
            #"{"type": "uniform", "lower": 1, "upper": 9223372036854775807}"#,
            #"response.delayDistribution: "upper" is at most 300000 ms"#
        ),
    ])
    func delayDistributionsAreValidatedAtLoad(_ distribution: String, _ error: String) throws {
        let folder = try ScratchFolder([
            "delay.json": #"{"request": {"urlPath": "/d"}, "response": {"delayDistribution": \#(distribution)}}"#
        ])
        let report = StubFolder(url: folder.url).check()
        #expect(report.errors.map { "\($0.field): \($0.message)" } == [error])
    }

    @Test func aFixedDelayIsValidatedAtLoad() throws {
        let folder = try ScratchFolder([
            "delay.json": #"{"request": {"urlPath": "/d"}, "response": {"fixedDelayMilliseconds": 300001}}"#
        ])
        #expect(StubFolder(url: folder.url).check().errors.map(\.message) == ["a delay is at most 300000 ms"])
    }

    /// Delays made in code are not validated, so every draw is clamped instead of trapping.
    @Test(arguments: [
        Delay.lognormal(median: .milliseconds(80), sigma: 1_000), .lognormal(median: .seconds(1), sigma: .nan),
        .lognormal(median: .seconds(1), sigma: .infinity), .fixed(.seconds(1_000_000)),
        .uniform(.seconds(-10)...(.seconds(1_000_000))),
    ])
    func everyDrawIsClampedToTheMaximum(_ delay: Delay) async throws {
        let registry = StubRegistry(clock: ImmediateClock(), seed: 1)
        try registry.register(StubResponse(text: "late", delay: delay), for: .get("/late"))
        for _ in 0..<200 {
            let drawn = try await registry.engine.deliver(StubRequest(method: .get, target: "/late")).delay
            #expect(drawn >= .zero && drawn <= Delay.maximum)
        }
    }
}
