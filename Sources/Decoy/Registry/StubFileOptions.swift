/// How a registry reads the stub files it loads and the admin API's stub documents.
package struct StubFileOptions: Sendable, Equatable {
    /// Every response a template, as WireMock's global response templating makes it.
    package var templatesEveryResponse = false
    /// `Content-Type` set from a `jsonBody` or a body file's extension when a stub sets none,
    /// where WireMock sends none.
    package var contentTypeFromBody = false
    /// The hosts webhooks may go to beside loopback; a stub whose webhook names another is refused.
    package var webhookAllowedHosts: Set<String> = []

    package init(
        templatesEveryResponse: Bool = false, contentTypeFromBody: Bool = false, webhookAllowedHosts: Set<String> = []
    ) {
        self.templatesEveryResponse = templatesEveryResponse
        self.contentTypeFromBody = contentTypeFromBody
        self.webhookAllowedHosts = webhookAllowedHosts
    }
}
