public import Decoy

/// A stub registered on a server by ``RemoteDecoy``, for removing it later.
public struct RemoteStub: Sendable, Hashable {
    /// The mapping's id on the server, as `GET /__admin/mappings` lists it.
    public let id: String
    /// The route the stub was registered for.
    public let route: Route
}
