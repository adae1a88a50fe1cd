public import Foundation
public import HTTPTypes

/// A fixed answer: status, header fields, body, and optionally a delay, a throttle or a fault.
///
/// A response is itself the simplest ``Stub``: it answers every request the same way. The body
/// is encoded once, when the response is made, never per request.
public struct StubResponse: Stub {
    private struct Fields {
        var status: HTTPResponse.Status
        var headerFields: HTTPFields
        var body: Data
        var delay: Delay
        var throttle: Throttle = .none
        var fault: Fault?
        var events: EventStream?
        var relay: RelayedEvents?
        var drift: [ResponseDrift] = []
    }

    /// The fields, shared by every copy of the response; servings cache their encoding of it in `cache`.
    private final class Storage: Sendable {
        let fields: Fields
        /// `nil` for a response made to answer one request, whose encoding would never be reused.
        let cache: ServingCache?
        /// The cache of the response whose head this one shares, made to answer one request with
        /// another body (a template's, rendered per request); `nil` for a response with its own head.
        let headCache: ServingCache?
        /// Made with the response: an `HTTPResponse` allocates for its status, and every request
        /// the response answers would otherwise make one.
        let head: HTTPResponse
        /// Whether it answers with its head and whole body at once, worked out with the response
        /// rather than from its fields on every request it answers.
        let isSentAtOnce: Bool
        /// The room its head takes in a server's memory (``HeadRoom``), worked out with the response.
        let headLength: Int
        /// The `Content-Length` its header fields set, when shorter than its body, which is then
        /// sent cut to it; worked out with the response, so that a request costs no lookup.
        let shorterLength: Int?
        /// The `Content-Length` its header fields set, when it is a length.
        private let declaredLength: Int?

        convenience init(_ fields: Fields, isServedOnce: Bool) {
            self.init(
                fields, head: HTTPResponse(status: fields.status, headerFields: fields.headerFields),
                isServedOnce: isServedOnce)
        }

        /// Storage whose head, of the fields' status and header fields, is made already.
        convenience init(_ fields: Fields, head: HTTPResponse, isServedOnce: Bool) {
            self.init(
                fields, head: head, headLength: HeadRoom.length(of: fields.headerFields), isServedOnce: isServedOnce)
        }

        /// Storage whose head and its room are worked out already.
        init(_ fields: Fields, head: HTTPResponse, headLength: Int, isServedOnce: Bool) {
            self.fields = fields
            self.head = head
            self.headLength = headLength
            cache = isServedOnce ? nil : ServingCache()
            headCache = nil
            isSentAtOnce = Self.isSentAtOnce(fields)
            declaredLength = fields.headerFields[.contentLength].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
            shorterLength = Self.shorterLength(declaredLength, fields)
        }

        /// Storage for `body` and the rest of `base`, whose head and what was worked out of it it
        /// shares, made to answer one request.
        // Pays: scripts/benchmarks templates, "templated" under callgrind: 1.0k instructions a
        // rendered body, against 1.8k copying the fields once more and looking up `Content-Length`.
        init(body: Data, sharingHeadOf base: Storage) {
            var fields = base.fields
            fields.body = body
            isSentAtOnce = Self.isSentAtOnce(fields)
            declaredLength = base.declaredLength
            shorterLength = Self.shorterLength(declaredLength, fields)
            self.fields = fields
            head = base.head
            headLength = base.headLength
            cache = nil
            headCache = base.cache ?? base.headCache
        }

        private static func isSentAtOnce(_ fields: Fields) -> Bool {
            (fields.fault?.isAnsweredOverHTTP ?? true) && fields.events == nil && fields.relay == nil
                && (fields.throttle == .none || fields.body.isEmpty)
        }

        private static func shorterLength(_ declared: Int?, _ fields: Fields) -> Int? {
            declared.flatMap { length in
                length < fields.body.count && fields.events == nil && fields.relay == nil ? length : nil
            }
        }
    }

    private var storage: Storage

    /// A changed response gets new storage, and with it an empty serving cache.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields, isServedOnce: storage.cache == nil)
    }

    /// The status to answer with.
    public var status: HTTPResponse.Status {
        get { storage.fields.status }
        set { update { $0.status = newValue } }
    }

    /// The header fields to answer with.
    public var headerFields: HTTPFields {
        get { storage.fields.headerFields }
        set { update { $0.headerFields = newValue } }
    }

    /// The body to answer with.
    public var body: Data {
        get { storage.fields.body }
        set { update { $0.body = newValue } }
    }

    /// How long to wait before answering; ``Delay/none`` leaves it to the engine's default delay.
    public var delay: Delay {
        get { storage.fields.delay }
        set { update { $0.delay = newValue } }
    }

    /// How fast the body arrives once the head is sent.
    public var throttle: Throttle {
        get { storage.fields.throttle }
        set { update { $0.throttle = newValue } }
    }

    /// The event stream its body is sent as, event by event (``EventStreamStub``); `nil` for a body
    /// sent as ``throttle`` says. Its ``body`` holds one pass of the events, as the journal shows it.
    package internal(set) var events: EventStream? {
        get { storage.fields.events }
        set { update { $0.events = newValue } }
    }

    /// The upstream event stream a ``ProxyStub`` hands on as it arrives, in place of ``body``;
    /// `nil` for any other answer.
    package var relay: RelayedEvents? {
        get { storage.fields.relay }
        set { update { $0.relay = newValue } }
    }

    /// How a proxied response differs from what the registry's ``ProxiedResponseCheck`` holds it
    /// against; empty for any other response.
    package var drift: [ResponseDrift] {
        get { storage.fields.drift }
        set { update { $0.drift = newValue } }
    }

    /// A fault to produce instead of the response.
    public var fault: Fault? {
        get { storage.fields.fault }
        set { update { $0.fault = newValue } }
    }

    /// Where servings keep their encoding of this response; a changed response gets a new one.
    /// `nil` for a response made to answer one request: servings encode it for that one.
    package var cache: ServingCache? { storage.cache }

    /// Where servings keep their encoding of the head alone, when this response answers one request
    /// with the head of another, as every response a template renders its body alone for does
    /// (``renderedOnce(body:)``); `nil` otherwise. The head's response is never served itself, so
    /// its cache holds the head's encoding.
    package var headCache: ServingCache? { storage.headCache }

    /// The status and header fields as a response head, made once with the response.
    package var head: HTTPResponse { storage.head }

    /// Whether it answers with its head and whole body at once: no fault, and the body not paced.
    package var isSentAtOnce: Bool { storage.isSentAtOnce }

    /// The room its head takes in a server's memory for a connection, when it is sent (``HeadRoom``).
    package var headLength: Int { storage.headLength }

    /// This response with its body cut to the `Content-Length` it sets, when that is shorter, as
    /// WireMock's Jetty sends a stub's own length: each serving then sends what it announces, where
    /// in-process servings announced the stub's length beside the whole body and a server the
    /// body's. Itself, and its serving cache, when there is nothing to cut.
    package var cutToItsContentLength: StubResponse {
        guard let length = storage.shorterLength else { return self }
        var cut = self
        cut.body = body.prefix(length)
        return cut
    }

    /// Creates a response with a raw body.
    public init(
        status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], body: Data = Data(), delay: Delay = .none
    ) {
        storage = Storage(
            Fields(status: status, headerFields: headerFields, body: body, delay: delay, fault: nil),
            isServedOnce: false)
    }

    /// Creates a response of `head`'s status and header fields, made once for many responses: an
    /// `HTTPResponse` allocates for its status. One `isServedOnce` answers a single request, so
    /// servings keep no encoding of it.
    package init(head: HTTPResponse, body: Data, isServedOnce: Bool) {
        storage = Storage(
            Fields(status: head.status, headerFields: head.headerFields, body: body, delay: .none, fault: nil),
            head: head, isServedOnce: isServedOnce)
    }

    /// This response with `headerFields` and `body` in place of its own, made in one step to
    /// answer one request (a template's, rendered per request), so servings keep no encoding of it.
    package func renderedOnce(headerFields: HTTPFields, body: Data) -> StubResponse {
        var fields = storage.fields
        fields.headerFields = headerFields
        fields.body = body
        var rendered = self
        rendered.storage = Storage(fields, isServedOnce: true)
        return rendered
    }

    /// This response with `body` in place of its own and its head as it is, made to answer one
    /// request (a template that renders its body alone), so servings keep no encoding of it.
    package func renderedOnce(body: Data) -> StubResponse {
        var rendered = self
        rendered.storage = Storage(body: body, sharingHeadOf: storage)
        return rendered
    }

    /// Creates a `text/plain` response.
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], text: String, delay: Delay = .none) {
        self.init(
            status: status, headerFields: headerFields.defaulting(.contentType, to: "text/plain; charset=utf-8"),
            body: Data(text.utf8), delay: delay)
    }

    /// Creates an `application/json` response from JSON text, sent as written.
    public init(status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], json: String, delay: Delay = .none) {
        self.init(
            status: status, headerFields: headerFields.defaulting(.contentType, to: "application/json"),
            body: Data(json.utf8), delay: delay)
    }

    /// Creates an `application/json` response by encoding `value` now.
    ///
    /// The default encoder sorts keys, so two responses made from one value have the same bytes
    /// (a dictionary's order differs from one process to the next); an encoder passed in is used
    /// as it is.
    public init(
        status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], encoding value: some Encodable,
        encoder: JSONEncoder = .sortingKeys(), delay: Delay = .none
    ) throws {
        self.init(
            status: status, headerFields: headerFields.defaulting(.contentType, to: "application/json"),
            body: try encoder.encode(value), delay: delay)
    }

    /// Creates a response whose body is the file at `url`, read now; the content type follows the file's extension.
    public init(
        status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:], contentsOf url: URL, delay: Delay = .none
    ) throws {
        let type = MediaType.forExtension(url.pathExtension)
        self.init(
            status: status, headerFields: headerFields.defaulting(.contentType, to: type),
            body: try Data(contentsOf: url), delay: delay)
    }

    /// A stub that produces `fault` instead of a response.
    public static func fault(_ fault: Fault, delay: Delay = .none) -> StubResponse {
        var response = StubResponse(status: .ok, delay: delay)
        response.fault = fault
        return response
    }

    /// A copy that waits `delay` before answering.
    public func delayed(_ delay: Delay) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// A copy whose body arrives as `throttle` says.
    public func throttled(_ throttle: Throttle) -> StubResponse {
        var copy = self
        copy.throttle = throttle
        return copy
    }

    /// Always this response.
    public func resolve(for request: StubRequest) -> StubResolution {
        .response(self)
    }
}

extension HTTPFields {
    func defaulting(_ name: HTTPField.Name, to value: String) -> HTTPFields {
        var fields = self
        if fields[name] == nil { fields[name] = value }
        return fields
    }
}

/// Content types for the file extensions stub bodies usually have.
package enum MediaType {
    package static func forExtension(_ pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "svg": "image/svg+xml"
        case "css": "text/css"
        case "js": "application/javascript"
        case "csv": "text/csv"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "graphql": "application/graphql"
        default: "application/octet-stream"
        }
    }

    /// The type WireMock gives a file of `__files/` it serves statically: without a character
    /// set, and `application/json` for an extension it does not know, or none.
    package static func ofStaticFile(_ pathExtension: String) -> String {
        let known = forExtension(pathExtension)
        guard known != "application/octet-stream" else { return "application/json" }
        return known.split(separator: ";").first.map(String.init) ?? known
    }
}

extension JSONEncoder {
    /// An encoder whose output depends only on the value: keys sorted.
    @usableFromInline static func sortingKeys() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
