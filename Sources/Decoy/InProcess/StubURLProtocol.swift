import HTTPTypes
import HTTPTypesFoundation
import DecoyClient
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
public final class StubURLProtocol: URLProtocol {
    private let running = Mutex<Task<Void, Never>?>(nil)

    /// Takes every request of the sessions it is installed in.
    public override class func canInit(with request: URLRequest) -> Bool { true }

    /// Leaves requests as they are.
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// Answers the request from the engine its session is bound to.
    public override func startLoading() {
        guard let engine = SessionBinding.engine(for: request, task: task) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let stubRequest = Self.stubRequest(from: request)
        let url = request.url!
        // Foundation calls a protocol's client from any thread; the box says so to the compiler.
        let loader = Loader(urlProtocol: self)
        let task = Task {
            do {
                let response = try await engine.answer(stubRequest).response
                try await engine.waitOut(response.fault)
                try Task.checkCancellation()
                if let fault = response.fault { return loader.fail(with: fault.inProcessError) }
                loader.receive(response, url: url)
                let body = stubRequest.method == .head ? Data() : response.body
                #if canImport(FoundationNetworking)
                // swift-corelibs-foundation keeps only the last piece a protocol loads for a task
                // with a completion handler, so the paced body is loaded whole at its end.
                try await engine.dribble(body, response.throttle) { _ in }
                if !body.isEmpty { loader.load(body) }
                #else
                try await engine.dribble(body, response.throttle) { loader.load($0) }
                #endif
                loader.finish()
            } catch {
                // Cancelled: the session has already stopped listening.
            }
        }
        running.withLock { $0 = task }
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
private struct Loader: @unchecked Sendable {
    let urlProtocol: StubURLProtocol

    func fail(with error: URLError) {
        urlProtocol.client?.urlProtocol(urlProtocol, didFailWithError: error)
    }

    func receive(_ response: StubResponse, url: URL) {
        var fields: [String: String] = [:]
        for field in response.headerFields {
            fields[field.name.rawName] = fields[field.name.rawName].map { "\($0), \(field.value)" } ?? field.value
        }
        let head = HTTPURLResponse(url: url, statusCode: response.status.code, httpVersion: "HTTP/1.1", headerFields: fields)!
        urlProtocol.client?.urlProtocol(urlProtocol, didReceive: head, cacheStoragePolicy: .notAllowed)
    }

    func load(_ data: Data) {
        urlProtocol.client?.urlProtocol(urlProtocol, didLoad: data)
    }

    func finish() {
        urlProtocol.client?.urlProtocolDidFinishLoading(urlProtocol)
    }
}

extension URLSession {
    /// A session whose requests are answered by `registry`'s stubs, in-process.
    public static func stubbed(by registry: StubRegistry, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        stubbed(by: registry.engine, configuration: configuration)
    }

    /// A session whose requests are answered by `engine`, in-process.
    public static func stubbed(by engine: StubEngine, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        let binding = SessionBinding(engine: engine)
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
