import DecoyClient

extension StubRegistry {
    /// Whether every response loaded from here on is a template, whether or not it names the
    /// `response-template` transformer: WireMock's global response templating, set before
    /// loading a folder (and kept for reloads and the admin API's stubs).
    public var templatesEveryResponse: Bool {
        get { contents.withLock(\.fileOptions.templatesEveryResponse) }
        set { contents.withLock { $0.fileOptions.templatesEveryResponse = newValue } }
    }

    /// Whether a stub file's `jsonBody` or body file sets `Content-Type` (`application/json`, or by
    /// the file's extension) when the stub sets none. WireMock sends none, and by default neither
    /// does Decoy; set before loading a folder.
    public var contentTypeFromBody: Bool {
        get { contents.withLock(\.fileOptions.contentTypeFromBody) }
        set { contents.withLock { $0.fileOptions.contentTypeFromBody = newValue } }
    }
}
