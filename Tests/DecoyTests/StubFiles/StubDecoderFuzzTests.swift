import Decoy
import DecoyStubFiles
import Foundation
import Testing

/// A seeded mutation fuzzer for the stub-file decoders: valid documents, damaged at random in
/// ways that matter to JSON and YAML, read as files and as admin bodies. Every input must end in
/// stubs or in errors that say what is wrong; a crash, a hang or a silent nothing fails the run.
/// Bounded in count and in time, and replayable from the seed.
@Suite("Stub files: fuzzing the decoders")
struct StubDecoderFuzzTests {
    static let seeds: [(name: String, text: String)] = [
        (
            "stub.json",
            #"""
            {"request": {"method": "POST", "urlPathPattern": "/users/[0-9]+", "queryParameters": {"q": {"matches": \#
            "a+"}},
              "headers": {"Accept": {"contains": "json"}}, "bodyPatterns": [{"equalToJson": {"a": [1, 2]}}, \#
            {"matchesJsonPath": "$.a"}]},
             "response": {"status": 201, "headers": {"X-A": ["1", "2"]}, "jsonBody": {"id": 7, "tags": ["x"]},
              "delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4}, "chunkedDribbleDelay": \#
            {"numberOfChunks": 2, "totalDuration": 10}},
             "priority": 2, "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "next"}
            """#
        ),
        (
            "stubs.yaml",
            """
            - request: &get {method: GET, urlPath: /a}
              response: &ok {status: 200, body: ok, fixedDelayMilliseconds: 5}
            - request: {method: GET, url: "/b?x=1", cookies: {s: {equalTo: "1"}}}
              responses:
                - *ok
                - {status: 500, fault: CONNECTION_RESET_BY_PEER}
            - request: {method: ANY, urlPath: /c}
              response: {status: 200, base64Body: aGk=, delayDistribution: {type: uniform, lower: 1, upper: 5}}
            """
        ),
    ]

    /// Pieces that mean something to a JSON or YAML parser, to splice in at random.
    static let tokens = [
        "&a ", "*a", "[", "]", "{", "}", ": ", "- ", "\n", "\n  ", "'", "\"", "!!binary ", "<<: *a\n", "? ", "|\n", ",",
        "#", "\\u0000", "1e999", "-1", "\t", "%YAML 1.1\n", "---\n", "...",
        // What WireMock's JSON reading passes over, which Decoy blanks before parsing.
        "//", "/*", "*/", "\"body\": 1, ", "\"\"", "}}",
    ]

    static func mutate(_ text: String, using random: inout some RandomNumberGenerator) -> Data {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where position < bytes.count:
                bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1 where position < bytes.count:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...16, using: &random)))
            case 2 where position < bytes.count:
                let end = min(bytes.count, position + Int.random(in: 1...64, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default:
                bytes.insert(contentsOf: Array(tokens.randomElement(using: &random)!.utf8), at: position)
            }
        }
        return Data(bytes)
    }

    @Test func mutatedDocumentsEndInStubsOrErrors() throws {
        var random = SeededGenerator(source: RandomSource(seed: 18))
        let folder = try ScratchFolder()
        let registry = StubRegistry()
        // A synchronous test holds one of the task pool's threads, which the server tests beside it
        // answer from: kept to a few seconds.
        let deadline = ContinuousClock.now + .seconds(6)
        var runs = 0
        while runs < 500, ContinuousClock.now < deadline {
            runs += 1
            let (name, text) = Self.seeds[runs % Self.seeds.count]
            let data = Self.mutate(text, using: &random)
            try folder.write(name, String(decoding: data, as: UTF8.self))
            let report = StubFolder(url: folder.url).check()
            try FileManager.default.removeItem(at: folder.url.appending(path: name))
            #expect(
                report.isValid
                    ? !report.stubs.isEmpty : report.errors.allSatisfy { $0.file == name && !$0.message.isEmpty },
                "run \(runs): \(String(decoding: data, as: UTF8.self))")
            do {
                let mapping = try registry.addMapping(data)
                #expect(registry.mapping(id: mapping.id) != nil)
            } catch {
                #expect(
                    !error.stubFileErrors.isEmpty && error.stubFileErrors.allSatisfy { $0.file == "request body" },
                    "run \(runs)")
            }
            // A request pattern is refused or read; only a crash or a hang would fail here.
            _ = try? RequestPattern(json: data)
        }
        #expect(runs >= 100, "only \(runs) runs in the time allowed")
    }
}

/// The library's seeded source as a generator, so that a failing run replays from its seed.
struct SeededGenerator: RandomNumberGenerator {
    let source: RandomSource

    mutating func next() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(source.byte()) }
    }
}
