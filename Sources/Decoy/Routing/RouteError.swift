/// A route that cannot be registered, with what is wrong with it.
public struct RouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The route's path as given.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    package init(path: String, reason: String) {
        (self.path, self.reason) = (path, reason)
    }

    /// The message a developer reads.
    public var description: String { "invalid route path \"\(path)\": \(reason)" }
}
