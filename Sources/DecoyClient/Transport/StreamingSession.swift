import HTTPTypes
import HTTPTypesFoundation

#if canImport(FoundationNetworking)
    import Foundation
    package import FoundationNetworking
#else
    package import Foundation
#endif

/// The session a ``URLSessionTransport`` streams through: a copy of its session's configuration
/// with a delegate that hands each task's head, chunks and upload progress to that task's waiter.
///
/// A session of its own because swift-corelibs-foundation has no `bytes(for:)` and tells only the
/// session's delegate, never a task's, of the data that arrives. It is made on the first stream and
/// invalidated with the transport.
final class StreamingSession: Sendable {
    private let made: Mutex<URLSession?> = Mutex(nil)
    private let configuration: URLSessionConfiguration
    private let router = TaskRouter()

    init(configuration: URLSessionConfiguration) {
        // Copied so that later changes to the caller's configuration object reach neither session.
        self.configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
    }

    deinit {
        made.withLock { $0 }?.finishTasksAndInvalidate()
    }

    private var session: URLSession {
        made.withLock { session in
            if let session { return session }
            let new = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
            session = new
            return new
        }
    }

    /// Starts `request` with `body` and returns the head once it has arrived; the body follows as
    /// the session receives it. Cancelling the caller before the head cancels the task.
    func stream(_ request: URLRequest, body: UploadBody?) async throws -> (HTTPURLResponse, ResponseBody) {
        // A data task with the body in the request rather than an upload task, whose body a
        // URLProtocol never sees on Linux; a file goes as a stream, read as it is sent (chunked:
        // swift-corelibs-foundation sends a stream so whatever its length).
        var request = request
        switch body?.source {
        case .data(let data):
            request.httpBody = data
        case .file(let url):
            guard let stream = InputStream(url: url) else {
                throw URLError(.fileDoesNotExist, userInfo: [NSURLErrorFailingURLErrorKey: url])
            }
            request.httpBodyStream = stream
        case nil:
            break
        }
        let task = session.dataTask(with: request)
        let waiter = TaskWaiter(task: task, body: body)
        router.add(waiter, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.start(continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// A session delegate told of every piece of a body as it arrives, as a task without a completion
/// handler tells it: an in-process URLProtocol hands such a session's tasks their body piece by
/// piece, where swift-corelibs-foundation would keep only the last piece for a completion handler.
package protocol ReceivingPieces: URLSessionDataDelegate {}

/// Hands each delegate call to the waiter of its task.
private final class TaskRouter: NSObject, ReceivingPieces, Sendable {
    private let waiters = Mutex<[Int: TaskWaiter]>([:])

    func add(_ waiter: TaskWaiter, for task: URLSessionTask) {
        waiters.withLock { $0[task.taskIdentifier] = waiter }
    }

    private func waiter(of task: URLSessionTask) -> TaskWaiter? {
        waiters.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        waiter(of: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        waiter(of: dataTask)?.received(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        waiter(of: task)?.body?.reportSent(totalBytesSent)
    }

    // The client follows redirects itself, by its policy: the session hands each one back.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = waiters.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        waiter?.completed(error.map { URLSessionTransport.classified($0, for: task.originalRequest) })
    }
}

/// One streaming task: its head's waiter, then its body's continuation.
private final class TaskWaiter: Sendable {
    let body: UploadBody?
    private let task: URLSessionTask
    private let state = Mutex<State>(.starting)
    private let chunks: ResponseBody.Continuation
    private let responseBody: ResponseBody

    private enum State {
        case starting
        case awaitingHead(CheckedContinuation<(HTTPURLResponse, ResponseBody), any Error>)
        case streaming
        case done
    }

    init(task: URLSessionTask, body: UploadBody?) {
        self.task = task
        self.body = body
        var continuation: ResponseBody.Continuation?
        responseBody = ResponseBody { made in
            // Whatever ends the reading (its end too, when the task has already completed).
            made.onTermination = { [task] _ in task.cancel() }
            continuation = made
        }
        chunks = continuation!
    }

    func start(_ head: CheckedContinuation<(HTTPURLResponse, ResponseBody), any Error>) {
        state.withLock { $0 = .awaitingHead(head) }
        task.resume()
    }

    func received(_ response: URLResponse) {
        let waiting = state.withLock { state -> CheckedContinuation<(HTTPURLResponse, ResponseBody), any Error>? in
            guard case .awaitingHead(let head) = state else { return nil }
            state = .streaming
            return head
        }
        guard let waiting else { return }
        if let response = response as? HTTPURLResponse {
            waiting.resume(returning: (response, responseBody))
        } else {
            waiting.resume(throwing: URLError(.badServerResponse))
            task.cancel()
        }
    }

    func received(_ data: Data) {
        chunks.yield(data)
    }

    func completed(_ error: (any Error)?) {
        let waiting = state.withLock { state -> CheckedContinuation<(HTTPURLResponse, ResponseBody), any Error>? in
            defer { state = .done }
            guard case .awaitingHead(let head) = state else { return nil }
            return head
        }
        if let waiting {
            waiting.resume(throwing: error ?? URLError(.badServerResponse))
        }
        if let error { chunks.finish(throwing: error) } else { chunks.finish() }
    }
}

extension ResponseBody {
    /// What a producer of a body yields its chunks to.
    typealias Continuation = AsyncThrowingStream<Data, any Error>.Continuation
}
