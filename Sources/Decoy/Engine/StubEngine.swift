import Foundation
public import HTTPTypes

/// The one path every request takes, whichever serving received it: match, resolve, record, wait,
/// then a ``Delivery`` that says how the answer goes out.
///
/// ``StubTransport``, ``StubURLProtocol`` and the mock server only translate requests into this
/// engine and its deliveries out into their medium, so the same stubs give the same answers in all
/// of them.
package struct StubEngine: Sendable {
    /// Finds the stub for each request.
    public let provider: any StubProvider
    /// Records every request.
    public let journal: RequestJournal
    /// Measures delays; tests may pass a test clock.
    public let clock: any Clock<Duration>
    /// Draws random delays.
    package let random: RandomSource
    /// The delay of every stub answer whose response has ``Delay/none``, like WireMock's global delay.
    public var defaultDelay: Delay { defaultDelaySetting.value }
    let defaultDelaySetting: DelaySetting
    /// Sends the webhooks of the routes that answer.
    package var webhookSender: WebhookSender
    /// Unmatched 404s made before for request lines asked for again, so that one repeated request
    /// gets the same response, whose servings' encodings are kept, instead of a new one each time.
    private let unmatchedResponses = BoundedMemo<RequestLine, (nearMisses: [NearMiss], response: StubResponse)>()

    /// Creates an engine over `provider`.
    public init(
        provider: any StubProvider, journal: RequestJournal = RequestJournal(),
        clock: any Clock<Duration> = ContinuousClock(),
        random: RandomSource = RandomSource(), defaultDelay: Delay = .none
    ) {
        self.init(
            provider: provider, journal: journal, clock: clock, random: random,
            defaultDelay: DelaySetting(defaultDelay),
            webhookSender: WebhookSender(settings: WebhookSettings()))
    }

    /// Creates an engine whose default delay and webhook settings follow a registry's.
    init(
        provider: any StubProvider, journal: RequestJournal, clock: any Clock<Duration>, random: RandomSource,
        defaultDelay: DelaySetting, webhookSender: WebhookSender
    ) {
        self.webhookSender = webhookSender
        self.provider = provider
        self.journal = journal
        self.clock = clock
        self.random = random
        self.defaultDelaySetting = defaultDelay
    }

    /// The TLS fault of the registry it serves, which the in-process servings throw before an
    /// `https` request, as a server's HTTPS port fails its handshake while its HTTP port serves.
    package func tlsFault(for scheme: String?) -> TLSFault? {
        guard scheme?.lowercased() == "https" else { return nil }
        return (provider as? StubRegistry)?.tlsFault
    }

    /// Decides as much as it can without waiting: a matched static stub without delay is ready at once.
    package func prepare(_ request: StubRequest) -> Prepared<Delivery> {
        switch provider.lookup(request) {
        case .unmatched(let misses):
            let response = unmatchedResponse(for: request, nearMisses: misses)
            journal.record(request, route: nil, response: response)
            return .ready(
                Delivery(response, to: request.method, route: nil, delay: .zero, clock: clock, random: random))
        case .matched(let match):
            return prepare(request, for: match)
        }
    }

    /// Decides as much as it can without waiting for `request`, which `match` answers: for callers
    /// that looked the request up themselves.
    package func prepare(_ request: StubRequest, for match: StubMatch) -> Prepared<Delivery> {
        switch match.stub.resolve(for: request) {
        case .response(let response):
            return deliver(response, to: request, route: match.route)
        case .deferred(let run):
            return .pending {
                let response = try await resolve(run, for: request)
                return try await deliver(response, to: request, route: match.route).value()
            }
        }
    }

    /// The delivery for `request`, after its delay; throws only `CancellationError`.
    package func deliver(_ request: StubRequest) async throws -> Delivery {
        try await prepare(request).value()
    }

    /// The response a stub gave `request` (or the 404 when none matched), after its delay; throws
    /// only `CancellationError`.
    public func answer(_ request: StubRequest) async throws -> StubResponse {
        try await deliver(request).response
    }

    private func deliver(_ response: StubResponse, to request: StubRequest, route: Route?) -> Prepared<Delivery> {
        let delay = (response.delay == .none ? defaultDelay : response.delay).sample(from: random)
        let sentEvents = journal.record(request, route: route, response: response, delay: delay)
        let delivery = Delivery(
            response, to: request.method, route: route, delay: delay, clock: clock, random: random,
            sentEvents: sentEvents)
        guard delay > .zero else {
            sendWebhooks(of: route, for: request)
            return .ready(delivery)
        }
        return .pending { [clock] in
            try await clock.sleep(for: delay)
            sendWebhooks(of: route, for: request)
            return delivery
        }
    }

    /// Sends the webhooks of `route`, which answered `request`, once its answer is due.
    private func sendWebhooks(of route: Route?, for request: StubRequest) {
        guard let webhooks = route?.webhooks, !webhooks.isEmpty else { return }
        webhookSender.send(webhooks, for: request, clock: clock, random: random)
    }

    /// Runs deferred stubs until one gives a response; a thrown error becomes a 500 naming it.
    private func resolve(_ run: @Sendable () async throws -> any Stub, for request: StubRequest) async throws
        -> StubResponse
    {
        var next = run
        while true {
            let stub: any Stub
            do {
                stub = try await next()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                return StubResponse(
                    status: .internalServerError, text: "The stub for \(request) threw an error: \(error)\n")
            }
            switch stub.resolve(for: request) {
            case .response(let response): return response
            case .deferred(let deferred): next = deferred
            }
        }
    }

    /// The 404 for `request`: the one made before for the same request line and near misses, or a
    /// new one, kept when the request line was asked for before and served once when not.
    private func unmatchedResponse(for request: StubRequest, nearMisses: [NearMiss]) -> StubResponse {
        let line = RequestLine(request)
        let (made, isRepeated) = unmatchedResponses.lookUp(line)
        if let made, made.nearMisses == nearMisses { return made.response }
        let response = Self.unmatchedResponse(for: request, nearMisses: nearMisses, isServedOnce: !isRepeated)
        if isRepeated { unmatchedResponses.keep((nearMisses, response), for: line) }
        return response
    }

    /// `404 Not Found`, naming the closest routes and why each missed.
    static func unmatchedResponse(for request: StubRequest, nearMisses: [NearMiss], isServedOnce: Bool)
        -> StubResponse
    {
        // Appended as bytes into room made once, the near misses worded straight into it:
        // requests to distinct targets make a new one each, and appending to a `String` piece by
        // piece costs more than the words.
        var text: [UInt8] = []
        text.reserveCapacity(
            64 + request.target.utf8.count
                + nearMisses.reduce(0) { $0 + $1.route.path.utf8.count + $1.reasonCapacity + 24 })
        text.append(utf8: "No stub matches ")
        text.append(utf8: request.method.rawValue)
        text.append(utf8: " ")
        text.append(utf8: request.target)
        text.append(utf8: ".\n")
        if nearMisses.isEmpty {
            text.append(utf8: "No registered route comes close.\n")
        } else {
            text.append(utf8: "Closest routes:\n")
            for miss in nearMisses {
                text.append(utf8: "  - ")
                miss.route.appendDescription(to: &text)
                text.append(utf8: ": ")
                miss.appendReason(to: &text)
                text.append(utf8: "\n")
            }
        }
        // With a head made once: finding that a text response has its content type, field by
        // field, costs more than the body.
        return StubResponse(head: unmatchedHead, body: Data(text), isServedOnce: isServedOnce)
    }

    /// The 404's status and header fields, as ``StubResponse/init(status:headerFields:text:delay:)`` makes them.
    private static let unmatchedHead = HTTPResponse(
        status: .notFound,
        headerFields: HTTPFields([HTTPField(name: .decoyUnmatched, value: "true")])
            .defaulting(.contentType, to: "text/plain; charset=utf-8"))
}

extension HTTPField.Name {
    /// Marks the 404 the engine gives a request that no stub matched.
    public static let decoyUnmatched = HTTPField.Name("X-Decoy-Unmatched")!
}
