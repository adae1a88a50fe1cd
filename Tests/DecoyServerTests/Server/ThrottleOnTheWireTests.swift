import Decoy
import DecoyServer
import DecoyServerTesting
import Foundation
import Testing

@Suite("Throttled bodies on the wire")
struct ThrottleOnTheWireTests {
    /// The head comes at once, then the body in pieces spread over the throttle's duration,
    /// however the client reads: the pieces really travel apart.
    @Test func theBodyArrivesInSeveralPiecesOverTime() async throws {
        let registry = StubRegistry()
        let body = String(repeating: "0123456789", count: 40)
        try registry.register(
            StubResponse(text: body).throttled(.chunks(count: 4, over: .milliseconds(400))), for: .get("/slow"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port, receiveTimeout: endlessWait)
            connection.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let arrivals = await connection.readArrivals()
            // Claims that a busy machine cannot break: a reader woken late gets pieces together, but
            // never gets a piece before it is sent.
            #expect(arrivals.reduce(0) { $0 + $1.count } > body.utf8.count, "the head and the whole body: \(arrivals)")
            #expect(arrivals.count >= 3, "in pieces, read apart: \(arrivals)")
            #expect(
                arrivals.first.map { $0.at < .milliseconds(400) } == true, "the head waits for no piece: \(arrivals)")
            #expect(
                arrivals.last.map { $0.at >= .milliseconds(400) } == true, "the last piece waits its turn: \(arrivals)")
        }
    }

    @Test func headGetsTheHeadAtOnce() async throws {
        let registry = StubRegistry()
        let body = String(repeating: "slow body ", count: 60)
        try registry.register(StubResponse(text: body).throttled(.bytesPerSecond(1)), for: .any("/slow"))
        try await withMockServer(registry: registry) { server in
            let connection = try RawConnection(port: server.port, receiveTimeout: endlessWait)
            connection.send("HEAD /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let start = ContinuousClock.now
            let reply = await connection.read()
            #expect(reply.hasPrefix("HTTP/1.1 200 OK") && reply.contains("Content-Length: 600"))
            // The body would take ten minutes.
            #expect(ContinuousClock.now - start < endlessWait)
        }
    }

    /// A dribbling connection is suspended between pieces, so stopping must close it like any held one.
    @Test func stoppingClosesADribblingConnection() async throws {
        let registry = StubRegistry()
        try registry.register(
            StubResponse(text: "forever").throttled(.chunks(count: 2, over: .seconds(600))), for: .get("/slow"))
        let server = try MockServerTests.started(registry)
        let connection = try RawConnection(port: server.port, receiveTimeout: endlessWait)
        connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for _ in 0..<1_000 where server.heldConnectionCount == 0 { try await Task.sleep(for: .milliseconds(2)) }
        #expect(server.heldConnectionCount == 1)
        let start = ContinuousClock.now
        server.stop()
        let reply = await connection.read()
        #expect(reply.hasPrefix("HTTP/1.1 200 OK") && !reply.hasSuffix("forever"))
        #expect(ContinuousClock.now - start < endlessWait)
    }
}
