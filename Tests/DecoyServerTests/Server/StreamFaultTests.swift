import Decoy
import DecoyServer
import DecoyServerTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fault that ends a streamed body reaches the client at once, whatever else the server holds.
///
/// The content reader that ends a body with an error leaves libmicrohttpd 0.9.75 with a
/// connection marked closed but not yet closed, which it closes on its next look at that
/// connection; under epoll, a connection without socket events is looked at only while it is
/// the longest idle of its thread. So the reset waited, up to the connection timeout, whenever
/// another connection of the same thread had been idle longer: an idle keep-alive connection
/// here, a pooled one of `URLSession` in the report.
@Suite("A fault ending a stream")
struct StreamFaultTests {
    /// One event at once, then a reset.
    static func registry() throws -> StubRegistry {
        let registry = StubRegistry()
        try registry.register(
            EventStreamStub(events: [ServerEvent(data: "first")], then: .fault(.connectionReset)), for: .get("/feed"))
        try registry.register(StubResponse(text: "ok"), for: .get("/idle"))
        return registry
    }

    /// One thread, so that the idle connection and the stream share it; a connection timeout far
    /// above the wait allowed, so that a reset held back until it could not pass unseen.
    static let configuration = MockServer.Configuration(threadCount: 1, connectionTimeout: .seconds(60))
    /// The client's own timeout: far above the milliseconds a reset takes, even on a loaded
    /// machine, and far below the connection timeout, so a held reset shows as the client timing
    /// out.
    static let allowed = Duration.seconds(15)
    static let rounds = 200

    /// A keep-alive connection that has been answered and stays open, idle.
    static func idleConnection(to server: MockServer) async throws -> RawConnection {
        let idle = try RawConnection(port: server.port, receiveTimeout: endlessWait)
        idle.send("GET /idle HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = await idle.read(until: "ok")
        #expect(answer.hasPrefix("HTTP/1.1 200"), "the idle connection's answer: \(answer)")
        return idle
    }

    @Test func aRawClientSeesTheResetBesideAnIdleConnection() async throws {
        try await withMockServer(registry: Self.registry(), configuration: Self.configuration) { server in
            let idle = try await Self.idleConnection(to: server)
            defer { idle.close() }
            for round in 1...Self.rounds {
                let stream = try RawConnection(port: server.port, receiveTimeout: Self.allowed)
                stream.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
                let (text, ending) = await stream.readToEnd()
                #expect(text.contains("data: first"), "round \(round): the event before the fault")
                #expect(ending == .reset, "round \(round): \(text)")
                if ending != .reset { break }
            }
        }
    }

    @Test func aURLSessionSeesTheResetBesideAnIdleConnection() async throws {
        try await withMockServer(registry: Self.registry(), configuration: Self.configuration) { server in
            let idle = try await Self.idleConnection(to: server)
            defer { idle.close() }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = Double(Self.allowed.components.seconds)
            let session = URLSession(configuration: configuration)
            defer { session.invalidateAndCancel() }
            let url = URL(string: server.baseURL.absoluteString + "/feed")!
            for round in 1...Self.rounds {
                let error = await #expect(throws: URLError.self, "round \(round)") { try await session.data(from: url) }
                // Not the time waited: a loaded machine may stall a round by seconds, but only a
                // held reset lets the client's timeout pass.
                #expect(error?.code != .timedOut, "round \(round): \(String(describing: error))")
                if error?.code == .timedOut { break }
            }
        }
    }
}
