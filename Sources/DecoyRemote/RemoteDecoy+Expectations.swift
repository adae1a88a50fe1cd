public import Decoy
import DecoyTesting
import Foundation
import HTTPTypes

extension RemoteDecoy {
    /// How many requests the server's journal keeps that match `route`, counted on the server
    /// (WireMock's `POST /__admin/requests/count`), so that the answer is one number however many
    /// requests the journal holds.
    ///
    /// - Throws: ``DecoyError`` for a route a request pattern cannot describe, such as one
    ///   with a closure matcher, before anything is sent; ``DecoyError`` when the server refuses it.
    public func count(of route: Route) async throws -> Int {
        struct Count: Decodable { let count: Int }
        let data = try await send(.post, "requests/count", json: try StubEncoder.request(route))
        return try read(Count.self, from: data, answering: .post, "requests/count").count
    }

    /// Expects the number of requests matching `route` on the server to satisfy `count`;
    /// otherwise records a test failure here with the message `expect(_:count:)` gives
    /// in-process, near misses and all.
    ///
    /// The server counts, so a passing assertion costs one small request with 10 requests in the
    /// journal or 10,000; only a failing one reads the whole journal, for its message.
    ///
    /// ```swift
    /// try await decoy.expect(.post("/users"), count: .once)
    /// ```
    public func expect(
        _ route: Route, count: CallCount = .atLeast(1),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        guard !count.accepts(try await self.count(of: route)) else { return }
        try await ServerJournal(self).expect(
            route, count: count, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects every request the server received to have matched a stub; otherwise records a test
    /// failure that lists the unmatched ones with their near misses, as in-process. The server
    /// finds them (WireMock's `GET /__admin/requests/unmatched`), so a passing assertion reads none.
    public func expectNoUnmatchedRequests(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        struct Unmatched: Decodable { let requests: [JSONValue] }
        let data = try await send(.get, "requests/unmatched")
        guard !(try read(Unmatched.self, from: data, answering: .get, "requests/unmatched").requests.isEmpty) else {
            return
        }
        try await ServerJournal(self).expectNoUnmatchedRequests(
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Expects no request on the server to match `route`; otherwise records a test failure that lists them.
    public func expectNoRequests(
        to route: Route,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        try await expect(route, count: .never, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// The server's journal as read for a failure's message, which names the server's dashboard, as
/// an assertion against a `MockServer` in the same process does.
private struct ServerJournal: RequestRecording {
    let journal: RequestJournal
    let dashboardURL: String?

    init(_ decoy: RemoteDecoy) async throws {
        journal = try await decoy.journal()
        dashboardURL = decoy.dashboardURL
    }
}
