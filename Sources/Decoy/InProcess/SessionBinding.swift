import DecoyClient
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Ties a stubbed `URLSession` to its engine.
///
/// `URLProtocol` instances are made by Foundation and see only the request and the task, so the
/// session carries a token in its additional header fields, and this table maps tokens to
/// bindings. The session retains its binding as its delegate until it is invalidated; the table
/// holds it weakly, and drops the entries of bindings gone whenever a new binding is made.
///
/// A session made with a data delegate of the caller's gets the body as it is loaded, an event
/// stream event by event: the binding, the session's delegate, hands the delegate the response,
/// each piece and the end.
final class SessionBinding: NSObject, URLSessionDataDelegate, Sendable {
    let engine: StubEngine
    let token = UUID().uuidString
    /// The caller's delegate, which the session could not otherwise hold beside the binding.
    private let delegate: (any URLSessionDataDelegate & Sendable)?
    /// Whether the caller gave a data delegate, which hears of the body piece by piece.
    var hasDataDelegate: Bool { delegate != nil }

    private static let table = Mutex<[String: WeakBinding]>([:])

    init(engine: StubEngine, delegate: (any URLSessionDataDelegate & Sendable)?) {
        self.engine = engine
        self.delegate = delegate
        super.init()
        Self.table.withLock { table in
            table = table.filter { $0.value.binding != nil }
            table[token] = WeakBinding(binding: self)
        }
    }

    static func engine(for request: URLRequest, task: URLSessionTask?) -> StubEngine? {
        guard
            let token = request.value(forHTTPHeaderField: HTTPFieldName.session)
                ?? task.flatMap(session(of:))?.configuration.httpAdditionalHeaders?[HTTPFieldName.session] as? String
        else { return nil }
        return table.withLock { $0[token]?.binding?.engine }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let delegate else { return completionHandler(.allow) }
        #if canImport(FoundationNetworking)
            delegate.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
        #else
            // Darwin's delegate methods are optional: one left out allows the response.
            delegate.urlSession?(
                session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
                ?? completionHandler(.allow)
        #endif
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        #if canImport(FoundationNetworking)
            delegate?.urlSession(session, dataTask: dataTask, didReceive: data)
        #else
            delegate?.urlSession?(session, dataTask: dataTask, didReceive: data)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        #if canImport(FoundationNetworking)
            delegate?.urlSession(session, task: task, didCompleteWithError: error)
        #else
            delegate?.urlSession?(session, task: task, didCompleteWithError: error)
        #endif
    }

    /// The session `task` belongs to, found by reflection on swift-corelibs-foundation's internal
    /// `URLSessionTask.session`, because no supported way exists: a task has no public session,
    /// a configuration's header fields are added only by corelibs' own HTTP protocol, after ours
    /// has seen the request, and `task.delegate` is the session's delegate only for a task without
    /// one of its own. `SessionBindingTests` fails, naming the field, when corelibs changes it.
    static func session(of task: URLSessionTask) -> URLSession? {
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            for child in current.children where child.label == "session" {
                return (child.value as? URLSession) ?? Mirror(reflecting: child.value).children.first?.value
                    as? URLSession
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    private enum HTTPFieldName {
        static let session = "X-Decoy-Session"
    }
}

private struct WeakBinding: Sendable {
    weak var binding: SessionBinding?
}
