extension StubRegistry {
    /// Whether every response loaded from here on is a template, whether or not it names the
    /// `response-template` transformer: WireMock's global response templating, set before
    /// loading a folder (and kept for reloads and the admin API's stubs).
    public var templatesEveryResponse: Bool {
        get { contents.withLock(\.templatesEveryResponse) }
        set { contents.withLock { $0.templatesEveryResponse = newValue } }
    }
}
