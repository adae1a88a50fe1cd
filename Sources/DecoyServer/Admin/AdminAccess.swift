extension MockServer {
    /// Who may use the admin API under `/__admin`.
    public enum AdminAccess: Sendable, Hashable {
        /// No admin API: `/__admin` paths go to the stubs like any other.
        case off
        /// Anyone who can reach the server; allowed only on a loopback host (127.0.0.0/8 or `::1`),
        /// as starting on another fails with ``DecoyError/openAdminAPIOffLoopback(host:)``.
        case open
        /// Only requests with `Authorization: Bearer <token>`.
        case token(String)
    }
}
