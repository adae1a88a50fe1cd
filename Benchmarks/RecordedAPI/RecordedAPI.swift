import Decoy
import Foundation
import HTTPTypes

/// The API the recording benchmarks record and replay: `GET /items/{n}` for 1,000 items, each a
/// small JSON object, as a list endpoint's details are.
///
/// The recording benchmark serves it as the upstream and records it; `Instructions` replays what
/// was recorded against ``handWritten()``, the same answers registered in code, so that what
/// differs is only where the stubs came from.
public enum RecordedAPI {
    /// How many routes the API has, and so how many stubs a recording of it writes.
    public static let count = 1_000

    /// The target of item `index`'s route.
    public static func target(_ index: Int) -> String { "/items/\(index)" }

    /// Item `index`'s answer.
    public static func response(_ index: Int) -> StubResponse {
        StubResponse(
            json: #"{"id":\#(index),"name":"Item \#(index)","price":12.5,"tags":["a","b"],"status":"ok"}"#)
    }

    /// The API's stubs, written by hand: one route per item, registered in code.
    public static func handWritten() throws -> StubRegistry {
        let registry = StubRegistry()
        for index in 0..<count { try registry.register(response(index), for: .get(target(index))) }
        return registry
    }

    /// `GET` item `index`, to the host the in-process serving stands for.
    public static func request(_ index: Int) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: "http", authority: "api.test", path: target(index))
    }
}
