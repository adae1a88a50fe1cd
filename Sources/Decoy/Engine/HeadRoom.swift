import HTTPTypes

/// The room a server has for a response's head beside the request's: libmicrohttpd writes both
/// into a connection's memory of a fixed size, and closes the connection without a word when the
/// response's does not fit. The engine, told the room, answers such a request with a `500` that
/// says why in place of the stub's response, and the journal records that `500`, as it was sent.
/// In-process servings have no such limit and tell none.
package struct HeadRoom: Sendable {
    /// The memory a connection has for both heads (`MockServer.Configuration.headerMemoryLimit`).
    package let limit: Int
    /// The room the request's head takes there.
    package let requestLength: Int

    package init(limit: Int, requestLength: Int) {
        self.limit = limit
        self.requestLength = requestLength
    }

    /// The room libmicrohttpd takes to write a head with `fields`: a line for each, and room for
    /// the longest status line and the fields it adds itself (`Date`, `Content-Length`). Measured
    /// against libmicrohttpd 0.9.75, this overestimates by 50 to 150 bytes.
    static func length(of fields: HTTPFields) -> Int {
        // Each field's `: ` and line end, and 192 bytes for the rest of the head.
        fields.reduce(192) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }

    /// `response`, or the `500` sent in its place when its head does not fit beside the request's.
    func fitting(_ response: StubResponse) -> StubResponse {
        guard response.fault == nil, response.headLength + requestLength > limit else { return response }
        return StubResponse(
            status: .internalServerError,
            text: "The response's head takes about \(response.headLength) bytes; beside this request's head, about "
                + "\(requestLength) bytes, it does not fit the \(limit) bytes of a connection's memory "
                + "(MockServer.Configuration.headerMemoryLimit, decoy serve's --header-memory-limit), so the server "
                + "cannot send it.\n")
    }
}
