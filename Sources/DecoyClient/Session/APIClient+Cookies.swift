#if canImport(FoundationNetworking)
    public import FoundationNetworking
#else
    public import Foundation
#endif

extension APIClient {
    /// The cookies this client keeps, its own and in memory; `nil` when its configuration does
    /// not handle cookies. Read it to see what a server set, or set a cookie before a request.
    public var cookieStorage: HTTPCookieStorage? {
        cookies?.storage
    }
}
