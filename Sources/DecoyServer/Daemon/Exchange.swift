import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// One request on its way through the server, from the raw request line to the answer: what
/// libmicrohttpd told of it, and where it is (``machine``), which decides everything about it.
///
/// `@unchecked Sendable`: libmicrohttpd calls a connection's handler and content reader on one
/// thread at a time, and only they touch the request's fields and move the machine, with one
/// exception: while the connection is suspended, the task that resumes it moves the machine,
/// under ``SuspendedExchanges``' lock and before `MHD_resume_connection`, and libmicrohttpd calls
/// the handler or reader again only after that resume, which it takes under its own lock.
final class Exchange: @unchecked Sendable {
    /// The request target exactly as received, query included.
    let target: String
    let connection: OpaquePointer
    /// The connection's head deadline, lifted once the head is in and set again once answered.
    let watch: HeadDeadlines.Watch?
    /// The daemon that serves it. Unowned and unchecked, so that no reference is counted per
    /// request: libmicrohttpd holds one to the daemon until its threads, which alone call back
    /// for an exchange, are joined (Daemon's Lifetime).
    unowned(unsafe) let daemon: Daemon
    /// Where the exchange is; each event of it goes through here.
    var machine: ExchangeStateMachine
    /// `nil` until the head is read, and after when the request's method is not a token.
    var method: HTTPRequest.Method?
    var rawHeaderFields: [(name: String, value: String)] = []
    /// When the head arrived (``Nanoseconds/now``), for the request log; `nil` when nothing logs.
    var started: Int64?
    /// The room the head takes in the connection's memory, where libmicrohttpd keeps the request
    /// line, the fields and a record of each; the response's head must fit beside it (`HeadRoom`).
    /// Added up as ``readHead(method:)`` reads the fields, and only then.
    var headLength = 0
    /// The last header field's value in libmicrohttpd's read buffer, which holds the head as
    /// received with each line end zeroed; set as ``readHead(method:)`` reads the fields, valid
    /// during the handler's first call only.
    var lastValue: UnsafePointer<CChar>?
    /// The socket libmicrohttpd hands over once a WebSocket's `101` is out, its handle and the bytes
    /// it read past the handshake; kept from the upgrade callback until the channel takes it.
    var upgradedSocket: (socket: Int32, handle: OpaquePointer, extra: Data)?

    init(target: String, connection: OpaquePointer, watch: HeadDeadlines.Watch?, daemon: Daemon) {
        self.target = target
        self.connection = connection
        self.watch = watch
        self.daemon = daemon
        machine = ExchangeStateMachine(bodyLimit: daemon.configuration.maxBodySize)
    }

    var request: StubRequest {
        StubRequest(method: method ?? .get, target: target, rawHeaderFields: rawHeaderFields, body: machine.body)
    }

    /// The declared body length, read without making the header fields.
    var contentLength: Int? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").flatMap { Int(String(cString: $0)) }
    }

    /// Whether libmicrohttpd ended the head at a field line rather than at the empty line. Its
    /// 0.9.75 zeroes the colon of a line such as `: v` before asking whether the line is empty, so
    /// after another field it takes that line for the head's end, leaves it out of the fields and
    /// reads what follows as the next request; RFC 9112 wants a `400` for a field with no name.
    /// Between the last value and the head's end, `method`, the first byte of the head, to
    /// ``decoy_connection_head_size``, lie only that value's line end and the empty line, one or
    /// two zeroed bytes each, unless a line with content ended the head.
    func headEndsAtAFieldLine(method: UnsafePointer<CChar>) -> Bool {
        let size = decoy_connection_head_size(connection)
        guard size > 0, let value = lastValue else { return false }
        let start = UnsafeRawPointer(method)
        let end = start + size
        // The value's end found once here, not for every field as it is read: strlen stops at the
        // zeroed line end, inside the buffer, which libmicrohttpd keeps during this first call.
        let from = UnsafeRawPointer(value + strlen(value))
        // A folded value lives elsewhere in the connection's memory: nothing to tell then.
        guard from > start, from <= end else { return false }
        // Safe: `from` to `end` lies within the head's bytes in the read buffer, checked above.
        let rest = UnsafeRawBufferPointer(start: from, count: end - from)
        return rest.count > 4 || rest.contains { $0 != 0 }
    }

    /// The method `raw` names, `nil` when it is not a token: the common ones found by their
    /// bytes, without making a string and checking it is a token character by character.
    static func method(_ raw: UnsafePointer<CChar>) -> HTTPRequest.Method? {
        // Safe: a string literal's bytes are static and end in a NUL, as strcmp needs.
        for (name, method) in commonMethods
        where strcmp(raw, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0 {
            return method
        }
        return HTTPRequest.Method(String(cString: raw))
    }

    private static let commonMethods: [(StaticString, HTTPRequest.Method)] = [
        ("GET", .get), ("POST", .post), ("PUT", .put), ("DELETE", .delete), ("PATCH", .patch), ("HEAD", .head),
        ("OPTIONS", .options),
    ]
}
