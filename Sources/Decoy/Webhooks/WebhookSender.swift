package import DecoyClient
import Foundation
import HTTPTypes
package import Logging

/// A registry's webhook settings, shared with its engines so that a change reaches a running
/// server: the transport webhooks go through and the hosts they may go to beside loopback.
package final class WebhookSettings: Sendable {
    private struct Values {
        /// `nil` until set or first used: most registries send no webhook, and a session costs.
        var transport: (any Transport)?
        var allowedHosts: Set<String> = []
    }

    private let values = Mutex(Values())

    package init() {}

    /// The transport set, or a `URLSessionTransport` made on first use.
    package var transport: any Transport {
        get {
            values.withLock { values in
                if let transport = values.transport { return transport }
                let made = URLSessionTransport()
                values.transport = made
                return made
            }
        }
        set { values.withLock { $0.transport = newValue } }
    }

    package var allowedHosts: Set<String> {
        get { values.withLock(\.allowedHosts) }
        set { values.withLock { $0.allowedHosts = newValue } }
    }
}

/// Sends a route's webhooks after its stub answered, each from a task of its own, so that no
/// answer waits for one and no server thread sends one; what goes wrong is logged, never answered.
package struct WebhookSender: Sendable {
    let settings: WebhookSettings
    /// Where failures and the statuses webhooks got are logged: the server's logger, when served by one.
    package var logger: Logger
    /// Starts the task that sends a webhook: a detached one, or one on the server's own threads
    /// when served by a `MockServer`, whose webhooks go to receivers elsewhere.
    package var startTask: @Sendable (sending @escaping @Sendable () async -> Void) -> Void = { operation in
        Task.detached(operation: operation)
    }

    package init(settings: WebhookSettings, logger: Logger = Logger(label: "decoy.webhooks")) {
        self.settings = settings
        self.logger = logger
    }

    /// Sends each of `webhooks` for `request`, after its delay on `clock`.
    func send(
        _ webhooks: [Webhook], for request: StubRequest, clock: any Clock<Duration>, random: RandomSource
    ) {
        for webhook in webhooks {
            let delay = webhook.delay.sample(from: random)
            startTask { [settings, logger] in
                if delay > .zero {
                    do { try await clock.sleepOnTimer(for: delay) } catch { return }
                }
                await Self.send(webhook, for: request, settings: settings, random: random, logger: logger)
            }
        }
    }

    private static func send(
        _ webhook: Webhook, for original: StubRequest, settings: WebhookSettings, random: RandomSource,
        logger: Logger
    ) async {
        let request: HTTPRequest
        let body: Data?
        do {
            (request, body) = try webhook.request(for: original, random: random)
        } catch {
            logger.error("Webhook \(webhook.method) \(webhook.url) for \(original) not sent: \(error.reason)")
            return
        }
        let target = "\(request.method) \(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")"
        let host = URLComponents(string: "http://\(request.authority ?? "")")?.host ?? ""
        guard WebhookHosts.allows(host, besides: settings.allowedHosts) else {
            logger.error("Webhook \(target) for \(original) not sent: \(WebhookHosts.refusal(of: host))")
            return
        }
        do {
            let (response, _) = try await settings.transport.send(request, body: body)
            logger.info("Webhook \(target) for \(original) answered \(response.status.code)")
        } catch {
            logger.error("Webhook \(target) for \(original) failed: \(error)")
        }
    }
}
