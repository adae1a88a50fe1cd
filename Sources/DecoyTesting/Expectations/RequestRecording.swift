public import Decoy

/// Anything that records the requests it receives: a registry, a journal itself, or
/// (with `DecoyServerTesting`) a mock server. The `expect…` assertions are defined once, here,
/// for all of them.
///
/// ```swift
/// registry.expect(.post("/users"), count: .once)
/// server.expectNoUnmatchedRequests()
/// ```
public protocol RequestRecording {
    /// The journal the assertions read.
    var journal: RequestJournal { get }
    /// Where a person can look at the requests while the test runs, named in every failure; `nil`
    /// for what has no such page, as in-process servings have not.
    var dashboardURL: String? { get }
}

extension RequestRecording {
    /// None: only a live server has a dashboard.
    public var dashboardURL: String? { nil }
}

extension RequestJournal: RequestRecording {
    /// The journal itself.
    public var journal: RequestJournal { self }
}

extension StubRegistry: RequestRecording {}

extension StubEngine: RequestRecording {}
