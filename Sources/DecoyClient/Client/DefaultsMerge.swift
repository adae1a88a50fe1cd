/// How a resource's query items and header fields meet the client's defaults of the same name.
///
/// ```swift
/// // The client sends locale=en; this resource sends locale=fr only.
/// let french = Resource<[Order]>.get("/orders", query: ["locale": "fr"])
/// // This one sends tag=a&tag=b: the client's tag=a, then its own.
/// let tagged = Resource<[Order]>.get("/orders", query: ["tag": "b"]).defaultsMerge(.append)
/// ```
public enum DefaultsMerge: Sendable, Hashable {
    /// The resource's item replaces every client item of the same name (the default).
    case replace
    /// The resource's items are sent after the client's, names repeated.
    case append
}
