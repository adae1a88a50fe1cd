import DecoyClient
import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// A `URLProtocol` that answers from a stub engine, for code that uses `URLSession` directly.
///
/// Get a session it answers with ``Foundation/URLSession/stubbed(by:configuration:)``. Each such
/// session is bound to its own engine, so parallel tests never see each other's stubs.
package class StubURLProtocol: URLProtocol {
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// Takes every request of the sessions it is installed in.
    public override class func canInit(with request: URLRequest) -> Bool { true }

    /// Leaves requests as they are.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers the request from the engine its session is bound to.
    public override func startLoading() {
        guard let engine = Self.engine(for: request, task: task) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        if let fault = engine.tlsFault(for: request.url?.scheme) {
            client?.urlProtocol(self, didFailWithError: fault.urlError)
            return
        }
        let first = request
        let loader = Loader(urlProtocol: self)
        let task = Task { await StubURLProtocol.serve(first, from: engine, to: loader) }
        running.withLock { $0 = task }
    }

    /// Answers `first`, and the redirects that follow it, from `engine`.
    private static func serve(_ first: URLRequest, from engine: StubEngine, to loader: Loader) async {
        do {
            var request = first
            var redirectsFollowed = 0
            while true {
                let stubRequest = stubRequest(from: request)
                let delivery = try await engine.prepare(stubRequest).value()
                let (response, body): (HTTPResponse, Delivery.Body)
                do {
                    (response, body) = try await delivery.headAndBody()
                    try Task.checkCancellation()
                } catch let error as URLError {
                    // A fault: the session hears of it only while it still listens.
                    try Task.checkCancellation()
                    return loader.fail(with: error)
                }
                let head = Loader.head(of: delivery.head(announcing: body), url: request.url!)
                let cookies = loader.cookieStorage(for: request)
                if let cookies {
                    CookieJar.keep(response.headerFields[values: .setCookie], from: request.url!, in: cookies)
                }
                if let next = redirect(following: response, to: request, body: stubRequest.body) {
                    guard redirectsFollowed < redirectLimit else {
                        return loader.fail(with: URLError(.httpTooManyRedirects))
                    }
                    if let followed = try await loader.redirect(to: next, after: head) {
                        request = followed
                        if let cookies, let url = followed.url {
                            request.setValue(CookieJar.cookieField(for: url, in: cookies), forHTTPHeaderField: "Cookie")
                        }
                        redirectsFollowed += 1
                        continue
                    }
                }
                loader.receive(head)
                do {
                    try await send(body, of: delivery, to: loader)
                } catch let error as URLError {
                    // An event stream's fault, after some of it was loaded.
                    try Task.checkCancellation()
                    return loader.fail(with: error)
                }
                return loader.finish()
            }
        } catch {
            // Cancelled: the session has already stopped listening.
        }
    }

    /// Loads the body into the task as it comes, piece by piece (an event stream event by event),
    /// each when due.
    private static func send(_ body: Delivery.Body, of delivery: Delivery, to loader: Loader) async throws {
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation keeps only the last piece a protocol loads for a task with a
            // completion handler, so a body in pieces is loaded whole at its end unless the
            // session's delegate hears of each piece.
            if !loader.sessionReceivesPieces {
                var data = Data()
                try await delivery.send(body) { data.append($0) }
                return loader.load(data)
            }
        #endif
        try await delivery.send(body) { loader.load($0) }
    }

    /// URLSession's limit on redirects in a row; one more fails the task.
    private static let redirectLimit = 20

    /// The engine that answers `request`: the one its session is bound to.
    class func engine(for request: URLRequest, task: URLSessionTask?) -> StubEngine? {
        SessionBinding.engine(for: request, task: task)
    }

    /// The request that follows `response`, by the rules every serving shares, or `nil` when
    /// `response` is not a redirect to follow.
    private static func redirect(following response: HTTPResponse, to request: URLRequest, body: Data) -> URLRequest? {
        guard let http = request.httpRequest,
            let (next, nextBody) = Redirect.request(following: response, to: http, body: body),
            var followed = URLRequest(httpRequest: next)
        else { return nil }
        followed.httpBody = nextBody
        followed.timeoutInterval = request.timeoutInterval
        followed.cachePolicy = request.cachePolicy
        followed.httpShouldHandleCookies = request.httpShouldHandleCookies
        return followed
    }

    /// Cancels the answer in progress, and with it any delay.
    public override func stopLoading() {
        running.withLock { $0?.cancel() }
    }

    private static func stubRequest(from request: URLRequest) -> StubRequest {
        var fields = request.httpRequest?.headerFields ?? [:]
        fields[.decoySession] = nil
        let url = request.url!
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        return StubRequest(
            method: HTTPRequest.Method(request.httpMethod ?? "GET") ?? .get, target: target,
            headerFields: fields, body: request.httpBody ?? request.httpBodyStream.map(Self.readAll) ?? Data()
        )
    }

    /// Darwin hands a body as a stream rather than as `httpBody`.
    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 {
            data.append(buffer, count: count)
        }
        return data
    }
}

/// Hands an answer to a protocol's client from the task that produced it.
///
/// `@unchecked`: `URLProtocol` is not `Sendable`, but the loader only reads the `client` and `task`
/// Foundation gives the protocol when it makes it, and calls the client, which Foundation allows
/// from any thread.
private struct Loader: @unchecked Sendable {
    let urlProtocol: StubURLProtocol

    func fail(with error: URLError) {
        urlProtocol.client?.urlProtocol(urlProtocol, didFailWithError: error)
    }

    /// The head a URLSession client sees, from a response with its repeated fields joined.
    static func head(of response: HTTPResponse, url: URL) -> HTTPURLResponse {
        var fields: [String: String] = [:]
        for field in response.headerFields {
            fields[field.name.rawName] = field.value
        }
        return HTTPURLResponse(
            url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)!
    }

    func receive(_ head: HTTPURLResponse) {
        urlProtocol.client?.urlProtocol(urlProtocol, didReceive: head, cacheStoragePolicy: .notAllowed)
    }

    /// Where the task's session keeps the cookies of `request`, as URLSession would: `nil` when
    /// the request or the session's configuration leaves cookies alone.
    ///
    /// swift-corelibs-foundation stores `Set-Cookie` only for its own HTTP protocol, and Darwin's
    /// URLSession handles cookies itself, so only Linux needs the protocol to.
    func cookieStorage(for request: URLRequest) -> HTTPCookieStorage? {
        #if canImport(FoundationNetworking)
            guard request.httpShouldHandleCookies, let task = urlProtocol.task,
                let configuration = SessionBinding.session(of: task)?.configuration,
                configuration.httpShouldSetCookies, configuration.httpCookieAcceptPolicy != .never
            else { return nil }
            return configuration.httpCookieStorage
        #else
            return nil
        #endif
    }

    /// Asks the task's delegate whether to follow a redirect to `next`, as URLSession does, and
    /// returns the request to send, or `nil` to answer with the redirect itself.
    ///
    /// swift-corelibs-foundation cannot take a redirect from a protocol, so there the protocol
    /// follows it; Darwin's URLSession takes it and asks for a new load.
    func redirect(to next: URLRequest, after head: HTTPURLResponse) async throws -> URLRequest? {
        #if canImport(FoundationNetworking)
            guard let task = urlProtocol.task, let delegate = task.delegate,
                let session = SessionBinding.session(of: task)
            else { return next }
            return await withCheckedContinuation { continuation in
                session.delegateQueue.addOperation {
                    delegate.urlSession(session, task: task, willPerformHTTPRedirection: head, newRequest: next) {
                        continuation.resume(returning: $0)
                    }
                }
            }
        #else
            urlProtocol.client?.urlProtocol(urlProtocol, wasRedirectedTo: next, redirectResponse: head)
            // This load ends here, as a cancelled one does: URLSession starts another for `next`.
            throw CancellationError()
        #endif
    }

    #if canImport(FoundationNetworking)
        /// Whether the task's session hears of each piece of the body: ``URLSessionTransport``'s
        /// streaming session does, and so does a stubbed session given a data delegate.
        var sessionReceivesPieces: Bool {
            let delegate = urlProtocol.task.flatMap(SessionBinding.session(of:))?.delegate
            return delegate is any ReceivingPieces || (delegate as? SessionBinding)?.hasDataDelegate == true
        }
    #endif

    func load(_ data: Data) {
        urlProtocol.client?.urlProtocol(urlProtocol, didLoad: data)
    }

    func finish() {
        urlProtocol.client?.urlProtocolDidFinishLoading(urlProtocol)
    }
}

extension URLSession {
    /// A session whose requests are answered by `registry`'s stubs, in-process; `delegate` gets
    /// each task's response, body as it is loaded (an event stream event by event) and end.
    public static func stubbed(
        by registry: StubRegistry, configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDataDelegate & Sendable)? = nil
    ) -> URLSession {
        stubbed(by: registry.engine, configuration: configuration, delegate: delegate)
    }

    /// A session whose requests are answered by `engine`, in-process; `delegate` gets each task's
    /// response, body as it is loaded and end.
    package static func stubbed(
        by engine: StubEngine, configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDataDelegate & Sendable)? = nil
    ) -> URLSession {
        let binding = SessionBinding(engine: engine, delegate: delegate)
        let configuration = configuration.copy() as! URLSessionConfiguration
        configuration.protocolClasses = [StubURLProtocol.self]
        var headers = configuration.httpAdditionalHeaders ?? [:]
        headers[HTTPField.Name.decoySession.rawName] = binding.token
        configuration.httpAdditionalHeaders = headers
        return URLSession(configuration: configuration, delegate: binding, delegateQueue: nil)
    }
}

extension HTTPField.Name {
    /// Carries a stubbed session's token to ``StubURLProtocol``; removed before the engine sees the request.
    static let decoySession = HTTPField.Name("X-Decoy-Session")!
}
