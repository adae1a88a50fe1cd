public import Foundation
public import HTTPTypes

/// Carries one HTTP exchange for an ``APIClient``.
///
/// A transport is the only part of the client that touches the network, so swapping it is how
/// tests run the same client code against in-process stubs, a local mock server or a real API.
public protocol Transport: Sendable {
    /// Sends `request` with `body` and returns the response head and its complete body.
    ///
    /// Implementations throw their native errors (`URLError` for Foundation); ``APIClient``
    /// classifies them into a ``TransportFailure``.
    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data)

    /// Sends `request` with `body` and returns the response head as soon as it has arrived, with
    /// the body to read as it comes, in chunks.
    ///
    /// The default sends through ``send(_:body:)`` and hands the whole body over as one chunk, so a
    /// transport that only has whole bodies works unchanged; one that receives in pieces
    /// implements this to hand each piece on when it arrives, and to report what it has sent of
    /// `body` through ``UploadBody/reportSent(_:)``.
    func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody)
}

extension Transport {
    /// The whole exchange through ``send(_:body:)``: the upload read whole, the body one chunk.
    public func stream(_ request: HTTPRequest, body: UploadBody?) async throws -> (HTTPResponse, ResponseBody) {
        let data = try body?.data()
        let (response, received) = try await send(request, body: data)
        if let data { body?.reportSent(Int64(data.count)) }
        return (response, ResponseBody(received))
    }
}
