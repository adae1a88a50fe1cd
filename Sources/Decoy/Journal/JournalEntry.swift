public import Foundation
public import HTTPTypes

/// One request the engine received, and how it was answered.
public struct JournalEntry: Sendable {
    /// The position of this request among all the engine received, from 1; it keeps counting past the journal's limit.
    public let sequence: Int
    /// When the request arrived.
    public let date: Date
    /// The request as received.
    public let request: StubRequest
    /// The route of the stub that answered; `nil` when nothing matched.
    public let route: Route?
    /// The response given, or the fault produced.
    public let response: StubResponse
    /// How long the engine held the answer, the response's delay or the default one.
    public let delay: Duration

    /// Creates an entry, as a journal records it or as it is read back from a server's admin API.
    package init(
        sequence: Int, date: Date, request: StubRequest, route: Route?, response: StubResponse, delay: Duration
    ) {
        self.sequence = sequence
        self.date = date
        self.request = request
        self.route = route
        self.response = response
        self.delay = delay
    }

    /// The status answered, or `nil` when a fault was produced instead; a proxy failure has both,
    /// as the server answers it with its status.
    public var status: HTTPResponse.Status? { response.fault?.isAnsweredOverHTTP ?? true ? response.status : nil }
    /// The fault produced, if any.
    public var fault: Fault? { response.fault }

    /// Whether a stub answered the request.
    public var isMatched: Bool { route != nil }
}

extension JournalEntry: CustomStringConvertible {
    /// `METHOD target → outcome`, as verification messages list requests.
    public var description: String {
        let outcome = fault.map { "fault \($0)" } ?? status.map { "\($0.code)" } ?? "no answer"
        return "\(request) → \(outcome)\(route == nil ? " (unmatched)" : "")"
    }
}
