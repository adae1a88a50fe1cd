import CMicroHTTPD
import Decoy
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
        pointer = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        Self.add(response.headerFields, to: pointer)
    }

    /// Adds `fields` to a libmicrohttpd response, leaving out those it writes itself.
    static func add(_ fields: HTTPFields, to pointer: OpaquePointer) {
        for field in fields where !setByTheServer.contains(field.name) {
            MHD_add_response_header(pointer, field.name.rawName, field.value)
        }
    }

    /// libmicrohttpd writes these itself and refuses them from a response.
    private static let setByTheServer: Set<HTTPField.Name> = [.contentLength, .transferEncoding, .connection, .date]

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
