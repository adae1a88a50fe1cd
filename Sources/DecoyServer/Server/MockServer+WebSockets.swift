public import Decoy

extension MockServer {
    /// Sends `message` to the open WebSockets whose handshake `route` matches (every open one when
    /// `nil`), as WireMock's `POST /__admin/channels/send` does; returns how many it went to.
    /// Throws when the route does not compile.
    ///
    /// ```swift
    /// let reached = try await server.sendToWebSockets(.text(#"{"price": 101}"#), matching: .get("/prices"))
    /// ```
    @discardableResult
    public func sendToWebSockets(_ message: ChannelMessage, matching route: Route? = nil) async throws(DecoyError)
        -> Int
    {
        let pattern = try route.map { (route) throws(DecoyError) in try RequestPattern(route) }
        return await webSockets.send(message, toChannelsMatching: pattern).count
    }

    /// How many WebSockets are open now.
    public var openWebSocketCount: Int { webSockets.channels.count }
}
