import Testing

@testable import Decoy

/// A response's serving cache keeps each serving's encoding apart: a response served both
/// in-process and by a server is encoded once for each, not again on every answer.
@Suite("A response's serving cache")
struct ServingCacheTests {
    final class Encoding: Sendable {}
    final class OtherEncoding: Sendable {}

    @Test func eachKindOfValueIsMadeOnceBesideTheOthers() {
        let cache = StubResponse(text: "fine").cache!
        var made = 0
        let first = cache.value(Encoding.self) {
            made += 1
            return Encoding()
        }
        let other = cache.value(OtherEncoding.self) {
            made += 1
            return OtherEncoding()
        }
        #expect(cache.value(Encoding.self) { Encoding() } === first)
        #expect(cache.value(OtherEncoding.self) { OtherEncoding() } === other)
        #expect(made == 2)
    }
}
