import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// One request on its way through the server, from the raw request line to the answer.
///
/// libmicrohttpd calls a connection's handler on one thread at a time, so the fields the handler
/// fills need no lock. `delivery`, `reply` and `isClosing` are written by the task that awaited the engine
/// before it resumes the connection, and read by the handler after the resume.
final class Exchange: @unchecked Sendable {
    /// The request target exactly as received, query included.
    let target: String
    let connection: OpaquePointer
    /// The connection's head deadline, lifted once the head is in and set again once answered.
    let watch: HeadDeadlines.Watch?
    var method: HTTPRequest.Method?
    var rawHeaderFields: [(name: String, value: String)] = []
    var body = Data()
    var hasHead = false
    var bodyTooLarge = false
    var started: ContinuousClock.Instant?
    var delivery: Delivery?
    /// An answer the server gives on its own behalf, such as the admin API's.
    var reply: StubResponse?
    var isClosing = false

    init(target: String, connection: OpaquePointer, watch: HeadDeadlines.Watch?) {
        self.target = target
        self.connection = connection
        self.watch = watch
    }

    var request: StubRequest {
        StubRequest(method: method ?? .get, target: target, rawHeaderFields: rawHeaderFields, body: body)
    }

    /// The declared body length, read without making the header fields.
    var contentLength: Int? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").flatMap { Int(String(cString: $0)) }
    }

    /// Reads the method and every header field, repeated ones included.
    func readHead(method rawMethod: UnsafePointer<CChar>) {
        hasHead = true
        method = HTTPRequest.Method(String(cString: rawMethod))
        MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
            guard let context, let key else { return .YES }
            let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
            exchange.rawHeaderFields.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
            return .YES
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Takes one piece of the body; past `limit` the body is dropped and marked too large.
    func receive(_ bytes: UnsafePointer<CChar>, count: Int, limit: Int) {
        guard !bodyTooLarge else { return }
        guard body.count + count <= limit else {
            bodyTooLarge = true
            body = Data()
            return
        }
        body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
    }
}
