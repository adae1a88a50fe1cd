public import Foundation
import HTTPTypes

/// A response rendered per request from templates in its body and header values, as WireMock's
/// `response-template` transformer renders them.
///
/// The templates are parsed when the stub is made, so a malformed one fails there, never on a
/// request. Random values (`randomValue`, `uuid`) come from a seeded source: pass a seed and the
/// same requests get the same values. `now` is the clock `{{now}}` reads; pass a fixed one in tests.
///
/// ```swift
/// let stub = try TemplateStub(
///     StubResponse(json: #"{"id": "{{request.path.[1]}}", "page": "{{request.query.page}}"}"#),
///     seed: 7
/// )
/// ```
public struct TemplateStub: Stub {
    /// The response whose status, delay, throttle and fault are used as they are; its body and
    /// header values are the templates' text.
    public let response: StubResponse
    /// The seed of the random source, `nil` when drawn from the system.
    public var seed: UInt64? { random.seed }

    /// `nil` for a body that is not UTF-8 text, which is sent as it is.
    let body: ResponseTemplate?
    let headerValues: [ResponseTemplate]
    /// The `data` of each event of an event stream, `nil` for an event without one.
    let eventData: [ResponseTemplate?]
    /// Renders a body file named per request: its name and then its text are templates.
    let bodyFile: (@Sendable (String) throws(TemplateRenderError) -> ResponseTemplate)?
    let bodyFileName: ResponseTemplate?
    /// Whether a body file's extension sets `Content-Type` when no header does; WireMock's never does.
    let typesBodyFile: Bool
    let random: RandomSource
    /// The clock `{{now}}` reads; `nil` for the system's.
    let clock: (@Sendable () -> Date)?
    /// The response every request gets when the templates write only text (as under
    /// `--global-response-templating`, most stubs' do): made once, so that a server keeps its
    /// encoding as it does a static stub's.
    private let constant: StubResponse?
    /// The response with its header values rendered once, when they are text alone and set no
    /// `Content-Length`, and its body alone is rendered per request: the head every request shares.
    // Pays: scripts/benchmarks instructions, "templated answer", which no longer rebuilds the header fields and head.
    private let renderedHead: StubResponse?

    /// Creates a stub that renders `response`'s body, when it is UTF-8 text, and its header values.
    ///
    /// Throws a ``DecoyError`` naming the place of the first malformed template.
    public init(_ response: StubResponse, seed: UInt64? = nil, now: (@Sendable () -> Date)? = nil)
        throws(DecoyError)
    {
        try self.init(response, bodyFile: nil, seed: seed, now: now)
    }

    /// Creates a stub whose body is the file a template names, read and rendered per request:
    /// for stub files, whose folder rules say how a name finds a file, and whether its extension
    /// gives a `Content-Type`.
    package init(
        _ response: StubResponse,
        bodyFile: (
            name: ResponseTemplate, read: @Sendable (String) throws(TemplateRenderError) -> ResponseTemplate,
            typed: Bool
        )?,
        seed: UInt64?, now: (@Sendable () -> Date)?
    ) throws(DecoyError) {
        self.response = response
        // An event stream's body is its events, whose data are rendered one by one.
        body = try String(validating: response.body, as: UTF8.self).flatMap { text throws(DecoyError) in
            response.events == nil ? try ResponseTemplate(text) : nil
        }
        var eventData: [ResponseTemplate?] = []
        for (index, event) in (response.events?.events ?? []).enumerated() {
            do {
                eventData.append(try event.data.map { data throws(DecoyError) in try ResponseTemplate(data) })
            } catch {
                throw error.located("in the data of event \(index + 1)")
            }
        }
        self.eventData = eventData
        var headerValues: [ResponseTemplate] = []
        for field in response.headerFields {
            do {
                headerValues.append(try ResponseTemplate(field.value))
            } catch {
                throw error.located("in header \(field.name)")
            }
        }
        self.headerValues = headerValues
        bodyFileName = bodyFile?.name
        self.bodyFile = bodyFile?.read
        typesBodyFile = bodyFile?.typed ?? false
        random = RandomSource(seed: seed)
        clock = now
        (constant, renderedHead) = Self.prerendered(
            response, body: body, headerValues: headerValues, namesBodyFile: bodyFile != nil)
    }

    /// What every request renders the same, rendered once: the whole response, when its body (if
    /// text) and header values are text alone; else its head, when its header values are text alone
    /// and set no `Content-Length`. Neither for a response that names a body file or is an event stream.
    private static func prerendered(
        _ response: StubResponse, body: ResponseTemplate?, headerValues: [ResponseTemplate], namesBodyFile: Bool
    ) -> (constant: StubResponse?, head: StubResponse?) {
        guard !namesBodyFile, response.events == nil else { return (nil, nil) }
        var fields = HTTPFields()
        for (field, template) in zip(response.headerFields, headerValues) {
            guard let constant = template.constantText else { return (nil, nil) }
            fields.append(HTTPField(name: field.name, lenientValue: Array(constant.utf8)))
        }
        var made = response
        if let body, body.constantText == nil {
            made.headerFields = fields
            return (nil, fields[.contentLength] == nil ? made : nil)
        }
        var text = body?.constantText.map { Data($0.utf8) } ?? response.body
        fitContentLength(&fields, of: &text)
        made.headerFields = fields
        made.body = text
        return (made, nil)
    }

    /// As WireMock's Jetty sends a stub's own `Content-Length`: the rendered body cut to it. One
    /// longer than the body, which Jetty announces and then closes short of, gives way to the
    /// body's own length.
    private static func fitContentLength(_ fields: inout HTTPFields, of body: inout Data) {
        guard let declared = fields[.contentLength] else { return }
        if let length = Int(declared), length >= 0, length < body.count { body = body.prefix(length) }
        fields[.contentLength] = "\(body.count)"
    }

    /// The response rendered for `request`; a template that cannot be rendered for it (a body
    /// file that is not there) answers `500` naming why, the same in every serving.
    public func resolve(for request: StubRequest) -> StubResolution {
        do throws(TemplateRenderError) {
            return .response(try rendered(for: request))
        } catch {
            return .response(
                StubResponse(
                    status: .internalServerError, text: "Decoy could not render this stub's template: \(error.reason)"))
        }
    }

    /// The response rendered for `request`, or why it cannot be: checking a stub against an
    /// OpenAPI document tells a template that fails from a stub that answers `500`.
    package func rendered(for request: StubRequest) throws(TemplateRenderError) -> StubResponse {
        if let constant { return constant }
        let context = TemplateContext(request: request, now: clock, random: random)
        if let renderedHead, let body { return renderedHead.renderedOnce(body: try body.renderedData(context)) }
        var fields = HTTPFields()
        for (field, template) in zip(response.headerFields, headerValues) {
            fields.append(HTTPField(name: field.name, lenientValue: Array(try template.render(context).utf8)))
        }
        var text = response.body
        if let bodyFileName, let bodyFile {
            let name = try bodyFileName.render(context)
            text = try bodyFile(name).renderedData(context)
            // As for a body file named at load: the type follows the extension unless a header gives one.
            if typesBodyFile, fields[.contentType] == nil {
                fields[.contentType] = MediaType.forExtension((name as NSString).pathExtension)
            }
        } else if let body {
            text = try body.renderedData(context)
        }
        guard let stream = response.events else {
            Self.fitContentLength(&fields, of: &text)
            return response.renderedOnce(headerFields: fields, body: text)
        }
        var rendered = response.renderedOnce(headerFields: fields, body: text)
        try render(stream, into: &rendered, context)
        return rendered
    }
}

extension TemplateStub {
    /// Renders each event's `data` into `response`, its body the rendered events; a rendered
    /// stream past an event stream's limits fails as a template that cannot be rendered.
    private func render(_ stream: EventStream, into response: inout StubResponse, _ context: TemplateContext)
        throws(TemplateRenderError)
    {
        var events = stream.events
        for (index, template) in eventData.enumerated() {
            if let template { events[index].data = try template.render(context) }
        }
        do {
            let rendered = try EventStream(events, then: stream.ending, repeats: stream.repeats)
            response.events = rendered
            response.body = rendered.onePass
        } catch {
            throw TemplateRenderError("the rendered event stream is refused: \(error.description)")
        }
    }
}

extension StubResponse {
    /// This response as a template: its body and header values rendered per request. See ``TemplateStub``.
    public func templated(seed: UInt64? = nil, now: (@Sendable () -> Date)? = nil) throws(DecoyError)
        -> TemplateStub
    {
        try TemplateStub(self, seed: seed, now: now)
    }
}
