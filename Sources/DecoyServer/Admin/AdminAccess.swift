extension MockServer {
    /// Who may use the admin API under `/__admin`.
    public enum AdminAccess: Sendable, Hashable {
        /// No admin API: `/__admin` paths go to the stubs like any other.
        case off
        /// Anyone who can reach the server; allowed on a loopback address only.
        case open
        /// Only requests with `Authorization: Bearer <token>`.
        case token(String)
    }
}
