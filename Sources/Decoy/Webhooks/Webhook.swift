import Foundation
package import HTTPTypes

/// A request Decoy sends after a route's stub answers: WireMock's `webhook` post-serve action.
///
/// The URL, the header values and the body are templates in which the request that was answered
/// goes by `originalRequest` (`{{originalRequest.path.[1]}}`, `{{jsonPath originalRequest.body '$.id'}}`),
/// as in WireMock. The webhook is sent apart from the answer, which it never delays, after its
/// own delay on the engine's clock, and only to a host the registry allows (see
/// ``StubRegistry/webhookAllowedHosts``).
/// ``Route/webhook(_:url:headerFields:body:delay:)`` adds one to a route.
package struct Webhook: Sendable, Hashable {
    /// The method of the request sent.
    package let method: HTTPRequest.Method
    /// Where it is sent: an absolute `http` or `https` URL, a template.
    package let url: String
    /// Its header fields; each value is a template.
    package let headerFields: HTTPFields
    /// Its body, a template; `nil` for none.
    package let body: String?
    /// How long after the answer it is sent.
    package let delay: Delay
    /// The templates, parsed once, in one object: a webhook is copied with its route.
    let templates: Templates

    final class Templates: Sendable {
        let url: ResponseTemplate
        let headerValues: [ResponseTemplate]
        let body: ResponseTemplate?

        init(url: ResponseTemplate, headerValues: [ResponseTemplate], body: ResponseTemplate?) {
            (self.url, self.headerValues, self.body) = (url, headerValues, body)
        }
    }

    /// The name the answered request goes by in a webhook's templates.
    package static let requestName = "originalRequest"

    /// Creates a webhook; throws a ``DecoyError`` naming the part whose template is malformed.
    package init(
        _ method: HTTPRequest.Method, url: String, headerFields: HTTPFields = [:], body: String? = nil,
        delay: Delay = .none
    ) throws(DecoyError) {
        (self.method, self.url, self.headerFields, self.body, self.delay) = (method, url, headerFields, body, delay)
        templates = Templates(
            url: try Self.template(url, part: "url"),
            headerValues: try headerFields.map { field throws(DecoyError) in
                try Self.template(field.value, part: "header \(field.name)")
            },
            body: try body.map { text throws(DecoyError) in try Self.template(text, part: "body") })
    }

    /// `text` parsed as a template of the webhook's `part`.
    package static func template(_ text: String, part: String) throws(DecoyError) -> ResponseTemplate {
        do {
            return try ResponseTemplate(text, requestName: requestName)
        } catch {
            throw error.located("in \(part)")
        }
    }

    /// Webhooks are equal when their fields are.
    package static func == (lhs: Webhook, rhs: Webhook) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.headerFields == rhs.headerFields
            && lhs.body == rhs.body && lhs.delay == rhs.delay
    }

    /// Hashes the fields.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(headerFields)
        hasher.combine(body)
        hasher.combine(delay)
    }

    /// The request to send for `original`, rendered; throws when a template cannot be rendered
    /// for it or the URL it gives is not an absolute `http` or `https` one.
    func request(for original: StubRequest, random: RandomSource) throws(TemplateRenderError) -> (
        HTTPRequest, Data?
    ) {
        let context = TemplateContext(request: original, now: nil, random: random)
        let url = try templates.url.render(context)
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else {
            throw TemplateRenderError("\"\(url)\" is not an absolute http or https URL")
        }
        var fields = HTTPFields()
        for (field, template) in zip(headerFields, templates.headerValues) {
            fields.append(HTTPField(name: field.name, value: try template.render(context)))
        }
        let authority = (components.percentEncodedHost ?? host) + (components.port.map { ":\($0)" } ?? "")
        let path =
            (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?\($0)" } ?? "")
        let body = try templates.body.map { template throws(TemplateRenderError) in
            try template.renderedData(context)
        }
        // WireMock sends a body as bytes; without this, URLSession would call it a form.
        if body != nil, fields[.contentType] == nil { fields[.contentType] = "application/octet-stream" }
        let request = HTTPRequest(
            method: method, scheme: scheme, authority: authority, path: path, headerFields: fields)
        return (request, body)
    }
}
