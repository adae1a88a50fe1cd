/// Which hosts webhooks may be sent to: loopback always (`127.0.0.0/8`, `::1`, `localhost`), and
/// the hosts a registry names besides, so that a stubs folder cannot make a test send requests
/// into the network unasked.
package enum WebhookHosts {
    /// Whether a webhook may go to `host`, given the hosts allowed beside loopback.
    package static func allows(_ host: String, besides allowed: Set<String>) -> Bool {
        let host = host.lowercased().trimmingPrefix("[").split(separator: "]").first.map(String.init) ?? ""
        return isLoopback(host) || allowed.contains { $0.lowercased() == host }
    }

    /// `localhost`, `::1`, or a dotted address in `127.0.0.0/8`.
    private static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Why a webhook may not go to `host`, as errors and logs say it.
    package static func refusal(of host: String) -> String {
        "webhooks go only to loopback hosts (127.0.0.0/8, ::1, localhost) and those allowed with "
            + "--webhook-allowed-host or StubRegistry.webhookAllowedHosts; \"\(host)\" is neither"
    }
}
