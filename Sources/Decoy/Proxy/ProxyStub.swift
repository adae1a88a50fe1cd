public import DecoyClient
public import Foundation
public import HTTPTypes

/// Answers by sending the request on to a real server and giving back its answer: WireMock's
/// `proxyBaseUrl`, so that some routes are stubbed and the rest pass through.
///
/// The request goes to `baseURL` followed by its target (path and query), with its method, its
/// header fields and its body, through `transport`. The upstream's status, header fields and body
/// are the answer, journaled like any other; an event stream (`text/event-stream`) goes on to
/// the client piece by piece as it arrives, and its events are noted for a recording. When the
/// upstream cannot be reached, the client gets a `502 Bad Gateway` whose body gives the reason, in
/// every serving, and the journal notes the failure (``Fault/proxyFailure(_:reason:)``).
///
/// ```swift
/// let registry = StubRegistry()
/// let upstream = URL(string: "http://127.0.0.1:8081")!
/// try registry.register(ProxyStub(to: upstream), for: Route(method: nil, path: "/**", priority: 10))
/// try registry.register(StubResponse(json: #"{"id": 1, "name": "stubbed"}"#), for: .get("/users/1"))
/// ```
public struct ProxyStub: Stub {
    /// Where requests go: the target of each is appended to it.
    public let baseURL: URL
    /// Header fields added to each request sent on, replacing fields of the same name.
    public var additionalRequestHeaders: HTTPFields
    /// Header fields left out of each request sent on.
    public var removedRequestHeaders: Set<HTTPField.Name>
    /// A leading part of the path taken off before the target is appended to ``baseURL``.
    public var urlPrefixToRemove: String?
    /// Header fields added to the upstream's answer, replacing fields of the same name.
    public var responseHeaders: HTTPFields
    /// How long to wait before answering, once the upstream answered.
    public var delay: Delay
    /// Carries the requests sent on.
    public let transport: any Transport

    /// Creates a proxy to `baseURL`, sending through `transport` (by default `URLSession`).
    public init(
        to baseURL: URL, transport: any Transport = ProxyStub.defaultTransport,
        additionalRequestHeaders: HTTPFields = [:],
        removingRequestHeaders removed: Set<HTTPField.Name> = [], urlPrefixToRemove: String? = nil,
        responseHeaders: HTTPFields = [:], delay: Delay = .none
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.additionalRequestHeaders = additionalRequestHeaders
        self.removedRequestHeaders = removed
        self.urlPrefixToRemove = urlPrefixToRemove
        self.responseHeaders = responseHeaders
        self.delay = delay
    }

    /// The transport of proxies that are given none, one for the process: a `URLSession` that
    /// keeps no cookies and follows no redirect, so that both reach the client as the upstream sent them.
    public static let defaultTransport: any Transport = URLSessionTransport()

    /// Sends the request on and answers with what comes back.
    public func resolve(for request: StubRequest) -> StubResolution {
        .deferred { try await forward(request) }
    }

    /// Fields that belong to one connection, not to the exchange, and those the transport sets
    /// itself from the URL and the body: never copied from one side to the other.
    private static let connectionFields: Set<HTTPField.Name> = [
        .init("Host")!, .contentLength, .transferEncoding, .connection, .init("Keep-Alive")!, .te, .upgrade,
        .init("Proxy-Connection")!,
        .init("Expect")!,
        // The transport asks for and decodes compressed bodies itself, so the body that comes
        // back is decoded and its encoding no longer applies.
        .acceptEncoding, .contentEncoding,
    ]

    /// The URL `request` goes to: the base URL, then the target without the prefix to remove.
    package func upstreamURL(for request: StubRequest) -> URL? {
        var target = request.target
        if let prefix = urlPrefixToRemove, target.hasPrefix(prefix) { target.removeFirst(prefix.count) }
        if !target.hasPrefix("/"), !target.isEmpty { target = "/" + target }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + target)
    }

    private func forward(_ request: StubRequest) async throws -> StubResponse {
        guard let url = upstreamURL(for: request), let scheme = url.scheme, let host = url.host else {
            return failure(
                for: request, code: .badURL,
                reason: "\(baseURL.absoluteString) and \(request.target) make no URL with a scheme and a host")
        }
        let fields = HTTPFields(
            request.headerFields.filter {
                !Self.connectionFields.contains($0.name) && !removedRequestHeaders.contains($0.name)
            }
        )
        .replacing(with: additionalRequestHeaders)
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = url.port.map { "\(bracketed):\($0)" } ?? bracketed
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        let upstreamRequest = HTTPRequest(
            method: request.method, scheme: scheme, authority: authority, path: path, headerFields: fields)
        let head: HTTPResponse
        let chunks: ResponseBody
        var body = Data()
        do {
            (head, chunks) = try await transport.stream(
                upstreamRequest, body: request.body.isEmpty ? nil : UploadBody(data: request.body))
            if !Self.isEventStream(head) {
                for try await chunk in chunks { body.append(chunk) }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let code = (error as? URLError)?.code ?? .unknown
            return failure(
                for: request, code: code, reason: "\(url.absoluteString) did not answer: \(error.localizedDescription)")
        }
        let answered = HTTPFields(
            head.headerFields.filter { !Self.connectionFields.contains($0.name) && $0.name != .date }
        ).replacing(with: responseHeaders)
        var response = StubResponse(status: head.status, headerFields: answered, body: body, delay: delay)
        if Self.isEventStream(head) { response.relay = RelayedEvents(chunks) }
        return response
    }

    /// Whether the upstream answers with an event stream, which goes on to the client as it
    /// arrives rather than once it has ended, which it may never do.
    private static func isEventStream(_ head: HTTPResponse) -> Bool {
        head.headerFields[.contentType]?.lowercased().hasPrefix("text/event-stream") == true
    }

    private func failure(for request: StubRequest, code: URLError.Code, reason: String) -> StubResponse {
        let text = "Decoy could not proxy \(request.method) \(request.target): \(reason)"
        var response = StubResponse(status: .badGateway, text: text + "\n", delay: delay)
        response.fault = .proxyFailure(code, reason: text)
        return response
    }
}

extension HTTPFields {
    /// These fields, with those named in `replacements` replaced by them.
    fileprivate func replacing(with replacements: HTTPFields) -> HTTPFields {
        var fields = self
        for field in replacements { fields[field.name] = nil }
        fields.append(contentsOf: replacements)
        return fields
    }
}
