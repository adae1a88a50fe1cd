import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// One request on its way through the server, from the raw request line to the answer.
///
/// `@unchecked Sendable`: libmicrohttpd calls a connection's handler and content reader on one
/// thread at a time, and only they touch the request's fields and move the phase, with one
/// exception: while the connection is suspended, the task that resumes it sets the phase, under
/// ``SuspendedExchanges``' lock and before `MHD_resume_connection`, and libmicrohttpd calls the
/// handler again only after that resume, which it takes under its own lock.
final class Exchange: @unchecked Sendable {
    /// Where an exchange is between its request line and its answer, as a state machine: each
    /// case says who may move it on, and to what.
    enum Phase {
        /// Only the request line is in; the handler's first call reads the head (``receiving``).
        case awaitingHead
        /// The head is read; pieces of the body, if any, go into `body`, unless it outgrows the
        /// limit (``bodyTooLarge``). Once it is whole the handler answers, and the phase stays, as
        /// libmicrohttpd calls the handler no more for this request; or it suspends (``waiting``).
        case receiving
        /// The body went past the server's limit: what came is dropped, what comes is ignored,
        /// and the answer is `413`. Final.
        case bodyTooLarge
        /// The connection is suspended while a task works out how to go on; only that task moves
        /// it on, to ``resumed(_:)``, ``answered`` or ``closing``, or the server's stopping, to
        /// ``closing`` (``SuspendedExchanges/closeAll()``, or at once when it has stopped already).
        case waiting
        /// Resumed with an answer or a reply (never another resumption), which the handler takes
        /// once (``answered``).
        case resumed(SuspendedExchanges.Resumption)
        /// Answered after a wait, or resumed to send the next piece of a throttled body; it may
        /// wait again before the next piece (``waiting``).
        case answered
        /// To be closed without an answer, or with the rest of one cut off. Final.
        case closing
    }

    /// The request target exactly as received, query included.
    let target: String
    let connection: OpaquePointer
    /// The connection's head deadline, lifted once the head is in and set again once answered.
    let watch: HeadDeadlines.Watch?
    // The mutable parts are `@exclusivity(unchecked)`: no two accesses overlap, as the class's
    // comment says, and Swift's dynamic check of each access of a class's property looks up a
    // thread-local set, a dozen times on every request.
    @exclusivity(unchecked) private(set) var phase = Phase.awaitingHead
    /// `nil` until the head is read, and after when the request's method is not a token.
    @exclusivity(unchecked) var method: HTTPRequest.Method?
    @exclusivity(unchecked) var rawHeaderFields: [(name: String, value: String)] = []
    @exclusivity(unchecked) var body = Data()
    /// When the head arrived (``Nanoseconds/now``), for the request log; `nil` when nothing logs.
    @exclusivity(unchecked) var started: Int64?
    /// The room the head takes in the connection's memory, where libmicrohttpd keeps the request
    /// line, the fields and a record of each; the response's head must fit beside it
    /// (``PreparedResponse/headLength(of:)``). Added up as ``readHead(method:)`` reads the fields.
    @exclusivity(unchecked) private(set) var headLength = 0

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

    var isClosing: Bool {
        if case .closing = phase { true } else { false }
    }

    /// Reads the method and every header field, repeated ones included: ``Phase/awaitingHead``
    /// to ``Phase/receiving``.
    func readHead(method rawMethod: UnsafePointer<CChar>) {
        phase = .receiving
        method = Self.method(rawMethod)
        // The request line's method, version, spaces and line end, about.
        headLength = target.utf8.count + 32
        // Room for every field at once, counted first, rather than regrown as they are appended.
        rawHeaderFields.reserveCapacity(Int(MHD_get_connection_values(connection, .HEADER_KIND, nil, nil)))
        MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, key, value in
                guard let context, let key else { return .YES }
                let exchange = Unmanaged<Exchange>.fromOpaque(context).takeUnretainedValue()
                let field = (name: String(cString: key), value: value.map { String(cString: $0) } ?? "")
                // `: ` and the line end, and libmicrohttpd's record of the field.
                exchange.headLength += field.name.utf8.count + field.value.utf8.count + 4 + 64
                exchange.rawHeaderFields.append(field)
                return .YES
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The method `raw` names, `nil` when it is not a token: the common ones found by their
    /// bytes, without making a string and checking it is a token character by character.
    private static func method(_ raw: UnsafePointer<CChar>) -> HTTPRequest.Method? {
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

    /// Takes one piece of the body; past `limit` the body is dropped and the phase is
    /// ``Phase/bodyTooLarge``.
    func receive(_ bytes: UnsafePointer<CChar>, count: Int, limit: Int) {
        guard case .receiving = phase else { return }
        guard body.count + count <= limit else {
            phase = .bodyTooLarge
            body = Data()
            return
        }
        body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
    }
}

extension Exchange {
    /// The connection is being suspended: ``Phase/waiting``. Called by the handler or the content
    /// reader before the task that will resume it exists.
    func wait() {
        phase = .waiting
    }

    /// How the task that awaited the engine resumes the connection; called under
    /// ``SuspendedExchanges``' lock, while the connection is still suspended.
    func resume(with resumption: SuspendedExchanges.Resumption) {
        switch resumption {
        case .deliver, .reply: phase = .resumed(resumption)
        case .proceed: phase = .answered
        case .close: phase = .closing
        }
    }

    /// The connection is to be closed: ``Phase/closing``.
    func close() {
        phase = .closing
    }

    /// The answer or reply a resumed exchange was given, once: ``Phase/resumed(_:)`` to
    /// ``Phase/answered``. `nil` in any other phase.
    func takeResumption() -> SuspendedExchanges.Resumption? {
        guard case .resumed(let resumption) = phase else { return nil }
        phase = .answered
        return resumption
    }
}
