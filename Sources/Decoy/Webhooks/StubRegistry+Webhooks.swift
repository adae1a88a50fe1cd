public import DecoyClient

extension StubRegistry {
    /// What the webhooks of this registry's routes are sent through: a `URLSessionTransport`
    /// unless changed, a ``StubTransport`` over another registry in tests that stay in-process.
    public var webhookTransport: any Transport {
        get { webhookSettings.transport }
        set { webhookSettings.transport = newValue }
    }

    /// The hosts webhooks may be sent to beside loopback (`127.0.0.0/8`, `::1`, `localhost`),
    /// by name or address as the URL writes them; set before loading a folder, whose webhooks to
    /// other hosts are refused at load. A webhook whose URL names another host is not sent.
    public var webhookAllowedHosts: Set<String> {
        get { webhookSettings.allowedHosts }
        set { webhookSettings.allowedHosts = newValue }
    }
}
