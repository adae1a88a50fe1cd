public import Decoy
import HTTPTypes

/// Anything that journals the messages of its WebSockets, received and sent: a `MockServer` (with
/// `DecoyServerTesting`) or a `RemoteDecoy`. ``expectMessages(_:count:timeout:fileID:filePath:line:column:)``
/// is defined once, here, for both.
///
/// ```swift
/// try await server.expectMessages(.received(on: .get("/chat"), body: .equalTo("hello")), count: .once)
/// ```
public protocol MessageRecording: Sendable {
    /// The events `pattern` matches, oldest first, once there are `count` of them, or those there
    /// are once `timeout` has passed: at once for a `count` of 0.
    func messageEvents(matching pattern: MessagePattern, count: Int, timeout: Duration) async throws
        -> [MessageEvent]
    /// Every event the journal keeps, oldest first.
    func messageEvents() async throws -> [MessageEvent]
    /// Where a person can look at the messages while the test runs, named in every failure.
    var dashboardURL: String? { get }
}

extension MessageRecording {
    /// Expects the number of messages `pattern` matches to satisfy `count`, waiting up to `timeout`
    /// for as many as it needs (not at all for `.never` and `.atMost`); otherwise records a test
    /// failure here, in XCTest or Swift Testing, that lists the near misses when too few came and
    /// the matching messages when too many did.
    ///
    /// ```swift
    /// try await server.expectMessages(.received(on: .get("/chat")), count: .exactly(3), timeout: .seconds(5))
    /// ```
    ///
    /// - Returns: the matching events, oldest first, to look at further.
    /// - Throws: what reading the journal throws: a `RemoteDecoy`'s ``DecoyError`` when the server
    ///   cannot be asked.
    @discardableResult
    public func expectMessages(
        _ pattern: MessagePattern, count: CallCount = .atLeast(1), timeout: Duration = .seconds(2),
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws -> [MessageEvent] {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let compiled: RequestPattern
        do {
            compiled = try RequestPattern(pattern.route)
        } catch {
            site.fail("Cannot check messages \(pattern): \(error)")
            return []
        }
        let needed = count.fewestAccepted
        let waited = needed > 0 ? timeout : .zero
        let matching = try await messageEvents(matching: pattern, count: needed, timeout: waited)
        guard !count.accepts(matching.count) else { return matching }
        var lines = [
            "Expected \(count.messages) \(pattern), but found \(matching.count)"
                + (waited > .zero ? " within \(waited)." : ".")
        ]
        if matching.count > needed {
            lines += ["Matching messages:"] + Self.list(matching)
        } else {
            let others = try await messageEvents().filter { event in
                pattern.direction.map { $0 == event.direction } ?? true
            }
            let misses = Closeness.ranked(others, from: compiled, request: MessagePattern.request(of:))
            if misses.isEmpty {
                lines.append("No other messages \(pattern.direction?.rawValue ?? "received or sent") were journaled.")
            } else {
                let shown = misses.prefix(ReceivedRequests.nearMissLimit)
                let closest = shown.count < misses.count ? "closest \(shown.count) of \(misses.count)" : "closest first"
                lines.append("Near misses (\(closest)):")
                lines += shown.map { "  \(Self.words(for: $0.candidate)): \($0.differences.joined(separator: "; "))" }
            }
        }
        if let dashboardURL { lines.append("See every message at \(dashboardURL)") }
        site.fail(lines.joined(separator: "\n"))
        return matching
    }

    /// `received "hello" on GET /chat?room=1` for each of `events`, up to a few, then how many more.
    private static func list(_ events: [MessageEvent]) -> [String] {
        var lines = events.prefix(ReceivedRequests.listedLimit).map { "  \(words(for: $0))" }
        if events.count > ReceivedRequests.listedLimit {
            lines.append("  … and \(events.count - ReceivedRequests.listedLimit) more")
        }
        return lines
    }

    private static func words(for event: MessageEvent) -> String {
        let text = event.message.text
        let shown = text.count > BodyMismatch.shownBodyLimit ? "\(text.prefix(BodyMismatch.shownBodyLimit))…" : text
        let request = event.channelRequest
        return "\(event.direction.rawValue) \"\(shown)\" on \(request.method.rawValue) \(request.target)"
    }
}

extension CallCount {
    /// The fewest messages the expectation accepts, which is what an assertion waits for.
    fileprivate var fewestAccepted: Int {
        switch self {
        case .exactly(let count), .atLeast(let count): count
        case .atMost: 0
        }
    }

    /// `exactly 2 messages`, and so on.
    fileprivate var messages: String {
        func messages(_ n: Int) -> String { n == 1 ? "1 message" : "\(n) messages" }
        return switch self {
        case .exactly(0): "no messages"
        case .exactly(let n): "exactly \(messages(n))"
        case .atLeast(let n): "at least \(messages(n))"
        case .atMost(let n): "at most \(messages(n))"
        }
    }
}
