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
    /// Told of every answer as it is due, with the route of the stub that gave it (`nil`: the 404):
    /// a server's message stubs set off by HTTP traffic. `nil` in-process, where no channel is open.
    package var answerObserver: (@Sendable (StubRequest, Route?) -> Void)?
    /// How long a ``Fault/timeout`` holds the exchange: until the client gives up, in-process; a
    /// server, which must let its connections go at some point, sets its own limit (`MockServer`'s
    /// `faultTimeoutHold`). Decided here with the rest of the delivery, so no serving caps it.
    package var timeoutHold = Delivery.untilTheClientGivesUp
    /// Checks what proxies bring back; a registry's, so that setting it reaches a running server.
    let proxiedResponseCheck: ProxiedResponseCheckSetting
    /// The provider when it finds stubs by route, whose lookups come with their 404s made, and kept
    /// for request lines asked for again.
    private let routing: (any RoutedStubProvider)?
    /// The provider when it has a TLS fault for `https` requests.
    private let tlsFaulting: (any TLSFaultingProvider)?

    /// Creates an engine over `provider`.
    public init(
        provider: any StubProvider, journal: RequestJournal = RequestJournal(),
        clock: any Clock<Duration> = ContinuousClock(),
        random: RandomSource = RandomSource(), defaultDelay: Delay = .none
    ) {
        self.init(
            provider: provider, journal: journal, clock: clock, random: random,
            defaultDelay: DelaySetting(defaultDelay),
            webhookSender: WebhookSender(settings: WebhookSettings()),
            proxiedResponseCheck: ProxiedResponseCheckSetting())
    }

    /// Creates an engine whose default delay and webhook settings follow a registry's.
    init(
        provider: any StubProvider, journal: RequestJournal, clock: any Clock<Duration>, random: RandomSource,
        defaultDelay: DelaySetting, webhookSender: WebhookSender, proxiedResponseCheck: ProxiedResponseCheckSetting
    ) {
        self.webhookSender = webhookSender
        self.proxiedResponseCheck = proxiedResponseCheck
        self.provider = provider
        self.journal = journal
        self.clock = clock
        self.random = random
        self.defaultDelaySetting = defaultDelay
        routing = provider as? any RoutedStubProvider
        tlsFaulting = provider as? any TLSFaultingProvider
    }

    /// The TLS fault of the provider it serves, which the in-process servings throw before an
    /// `https` request, as a server's HTTPS port fails its handshake while its HTTP port serves.
    package func tlsFault(for scheme: String?) -> TLSFault? {
        guard scheme?.lowercased() == "https" else { return nil }
        return tlsFaulting?.tlsFault
    }

    /// The stub for `request` with its route, or the 404 naming the closest routes, from a provider
    /// that finds stubs by route; any other provider's stub, with no route.
    package func lookup(_ request: StubRequest) -> StubLookup {
        routing?.lookup(request) ?? provider.lookupWithoutRoutes(request)
    }

    /// Decides as much as it can without waiting: a matched static stub without delay is ready at
    /// once. `headRoom` is the room a server has for the response's head; a response whose head
    /// does not fit is answered with a `500` in its place, and the journal records that.
    package func prepare(_ request: StubRequest, headRoom: HeadRoom? = nil) -> Prepared<Delivery> {
        switch lookup(request) {
        case .unmatched(let unmatched):
            // At once: the default delay is a stub's, and no stub answers.
            let response = headRoom?.fitting(unmatched.response) ?? unmatched.response
            journal.record(request, route: nil, response: response)
            answerObserver?(request, nil)
            return .ready(
                Delivery(
                    response, to: request.method, route: nil, delay: .zero, clock: clock, random: random,
                    timeoutHold: timeoutHold))
        case .matched(let match):
            return prepare(request, for: match, headRoom: headRoom)
        }
    }

    /// Decides as much as it can without waiting for `request`, which `match` answers: for callers
    /// that looked the request up themselves.
    package func prepare(_ request: StubRequest, for match: StubMatch, headRoom: HeadRoom? = nil)
        -> Prepared<Delivery>
    {
        switch match.stub.resolve(for: request) {
        case .response(let response):
            return deliver(response, to: request, route: match.route, headRoom: headRoom)
        case .deferred(let run):
            return .pending {
                var response = try await resolve(run, for: request)
                if let check = proxiedResponseCheck.value, response.fault == nil, match.stub.isProxy {
                    response.drift = check(request, response)
                }
                return try await deliver(response, to: request, route: match.route, headRoom: headRoom).value()
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

    /// The delivery of `response`, its body cut to the `Content-Length` it sets, or of the `500` in
    /// its place when its head does not fit `headRoom`, after the delay of `response`; the journal
    /// records what goes out.
    private func deliver(_ response: StubResponse, to request: StubRequest, route: Route?, headRoom: HeadRoom?)
        -> Prepared<Delivery>
    {
        let delay = (response.delay == .none ? defaultDelay : response.delay).sample(from: random)
        let sent = response.cutToItsContentLength
        let response = headRoom?.fitting(sent) ?? sent
        let sentEvents = journal.record(request, route: route, response: response, delay: delay)
        let delivery = Delivery(
            response, to: request.method, route: route, delay: delay, clock: clock, random: random,
            timeoutHold: timeoutHold, sentEvents: sentEvents)
        guard delay > .zero else {
            answerIsDue(by: route, for: request)
            return .ready(delivery)
        }
        return .pending { [clock] in
            try await clock.sleepOnTimer(for: delay)
            answerIsDue(by: route, for: request)
            return delivery
        }
    }

    /// Sends the webhooks of `route`, which answered `request`, once its answer is due, and tells
    /// the ``answerObserver``.
    private func answerIsDue(by route: Route?, for request: StubRequest) {
        answerObserver?(request, route)
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
}

extension HTTPField.Name {
    /// Marks the 404 the engine gives a request that no stub matched.
    public static let decoyUnmatched = HTTPField.Name("X-Decoy-Unmatched")!
}
