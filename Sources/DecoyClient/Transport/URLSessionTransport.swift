public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// A ``Transport`` over Foundation's `URLSession`: the one to use in production and against a
/// ``MockServer`` in integration tests.
///
/// It carries one exchange: the session follows no redirect and handles no cookie, because
/// ``APIClient`` does both itself, the same way over every transport (see ``APIClient/Configuration/redirectLimit``).
/// On Linux a session stores and sends the cookies of its configuration's storage whatever a
/// request says, so give it a configuration without cookies, as the default session has.
public struct URLSessionTransport: Transport {
    /// The session every request goes through.
    ///
    /// A streamed exchange goes through a session made from a copy of its configuration, whose
    /// delegate receives the body as it comes: `session`'s own delegate is not asked.
    public let session: URLSession
    private let streaming: StreamingSession

    /// Creates a transport on `session`: by default an ephemeral session that keeps no cookies.
    public init(session: URLSession = URLSession(configuration: .withoutCookies())) {
        self.session = session
        streaming = StreamingSession(configuration: session.configuration)
    }

    /// Sends the request through the session; `body` goes up as the request body.
    public func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        urlRequest.httpBody = body
        urlRequest.httpShouldHandleCookies = false
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await exchange(urlRequest)
        } catch {
            throw Self.classified(error, for: urlRequest)
        }
        guard let httpResponse = (response as? HTTPURLResponse)?.httpResponse else {
            throw URLError(.badServerResponse)
        }
        return (httpResponse, data)
    }

    /// Sends the request and hands the body on as the session receives it; a file body is read as
    /// it goes up, and what has gone up is reported to `body`.
    ///
    /// Nothing holds the chunks back while the reader is slower than the network: on Linux a
    /// task cannot pause its transfer, so the reader should keep up (writing to a file does).
    public func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        guard var urlRequest = URLRequest(httpRequest: request) else {
            throw URLError(.badURL)
        }
        urlRequest.httpShouldHandleCookies = false
        let (response, chunks) = try await streaming.stream(urlRequest, body: body)
        guard let httpResponse = response.httpResponse else {
            chunks.cancel()
            throw URLError(.badServerResponse)
        }
        return (httpResponse, chunks)
    }

    /// One exchange with redirects refused by a task delegate.
    ///
    /// A completion handler rather than `data(for:delegate:)`: in swift-corelibs-foundation a
    /// delegate that refuses a redirect leaves that call waiting until it times out.
    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        let cancellation = CancellableTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let data, let response {
                        continuation.resume(returning: (data, response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                task.delegate = RefusingRedirects.delegate
                cancellation.start(task)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// `error` as Darwin reports it: swift-corelibs-foundation reports a reply it cannot parse as
    /// `unknown` (a broken chunk, a bad header) or `unsupportedURL` (bytes that are not HTTP at
    /// all) where Darwin reports `cannotParseResponse`; for an http(s) request those codes can
    /// mean nothing else but a failed TLS handshake, which libcurl reports as `unknown` too, and
    /// which is kept.
    static func classified(_ error: any Error, for request: URLRequest?) -> any Error {
        guard let error = error as? URLError, ["http", "https"].contains(request?.url?.scheme?.lowercased()),
            TransportFailure.tlsCategory(of: error) == nil,
            error.code == .unknown || error.code == .unsupportedURL
        else { return error }
        return URLError(.cannotParseResponse, userInfo: [NSUnderlyingErrorKey: error])
    }
}

/// A task delegate that answers every redirect with the redirect itself.
private final class RefusingRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    static let delegate = RefusingRedirects()

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A data task that may be cancelled before it is started: then it is never started.
private final class CancellableTask: Sendable {
    private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}

extension URLSessionConfiguration {
    /// An ephemeral configuration with no cookie storage, for sessions under an ``APIClient``,
    /// which keeps its own cookies.
    public static func withoutCookies() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return configuration
    }
}
