import CMicroHTTPD
import Decoy
import Foundation
import HTTPTypes

/// A libmicrohttpd response built once from a ``StubResponse`` and queued for every request the
/// stub answers; libmicrohttpd reference-counts it while it is being sent.
///
/// `@unchecked Sendable`: after `init` the `MHD_Response` is only queued, which libmicrohttpd
/// allows from any thread for a response shared by many connections, and destroyed in `deinit`,
/// which drops this object's reference while libmicrohttpd keeps its own for queued sends.
final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer
    let status: UInt32

    init(_ response: StubResponse) {
        status = UInt32(response.status.code)
        pointer = Self.make(response)
    }

    /// Sends `response` on `connection` without keeping its libmicrohttpd response, for an answer
    /// given once: libmicrohttpd holds the response while it sends it, so it is let go at once.
    static func queueOnce(_ response: StubResponse, on connection: OpaquePointer) -> MHD_Result {
        let pointer = make(response)
        defer { MHD_destroy_response(pointer) }
        return MHD_queue_response(connection, UInt32(response.status.code), pointer)
    }

    /// A new libmicrohttpd response with a copy of `response`'s body and its header fields.
    private static func make(_ response: StubResponse) -> OpaquePointer {
        let pointer: OpaquePointer = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        if let headCache = response.headCache {
            headCache.value(PreparedFields.self) { PreparedFields(response.headerFields) }.add(to: pointer)
        } else {
            add(response.headerFields, to: pointer)
        }
        return pointer
    }

    /// Adds `fields` to a libmicrohttpd response, leaving out those it writes itself.
    static func add(_ fields: HTTPFields, to pointer: OpaquePointer) {
        forEachField(of: fields) { name, value in _ = MHD_add_response_header(pointer, name, value) }
    }

    /// Calls `body` with the name and value, as C strings, of each of `fields` libmicrohttpd takes
    /// from a response.
    fileprivate static func forEachField(
        of fields: HTTPFields, _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Void
    ) {
        for field in fields where !setByTheServer.contains(field.name) {
            // Through `withCString`, which lends a short string from the stack, where passing the
            // string itself copies it to the heap.
            // libmicrohttpd refuses an empty value; one space reads as empty, since a client trims
            // the whitespace around a value.
            let value = field.value.isEmpty ? " " : field.value
            field.name.rawName.withCString { name in value.withCString { value in body(name, value) } }
        }
    }

    /// libmicrohttpd writes these itself and refuses them from a response. A `Date` a stub sets
    /// goes out instead of the library's, as WireMock sends it.
    private static let setByTheServer: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection]

    deinit { MHD_destroy_response(pointer) }

    /// Sends it on `connection`.
    func queue(on connection: OpaquePointer) -> MHD_Result {
        MHD_queue_response(connection, status, pointer)
    }

    /// A plain-text answer the server gives on its own behalf, such as `413`.
    static func text(_ status: HTTPResponse.Status, _ text: String) -> PreparedResponse {
        PreparedResponse(StubResponse(status: status, text: text))
    }
}

/// The header fields of a head many responses share, as libmicrohttpd takes them, made once: each
/// response a template renders its body alone for adds them without looking at a field's name.
// Pays: scripts/benchmarks templates, "templated" under callgrind: adding its two fields cost 3.8k
// instructions per request from `HTTPFields`, and 2.1k from here, 1.9k of them libmicrohttpd's.
final class PreparedFields: Sendable {
    private let fields: [(name: [CChar], value: [CChar])]

    init(_ fields: HTTPFields) {
        var prepared: [(name: [CChar], value: [CChar])] = []
        PreparedResponse.forEachField(of: fields) { name, value in
            prepared.append((Self.copy(name), Self.copy(value)))
        }
        self.fields = prepared
    }

    private static func copy(_ text: UnsafePointer<CChar>) -> [CChar] {
        Array(UnsafeBufferPointer(start: text, count: strlen(text) + 1))
    }

    /// Adds them to a libmicrohttpd response, which copies them.
    func add(to pointer: OpaquePointer) {
        for (name, value) in fields {
            name.withUnsafeBufferPointer { name in
                value.withUnsafeBufferPointer { value in
                    _ = MHD_add_response_header(pointer, name.baseAddress, value.baseAddress)
                }
            }
        }
    }
}
