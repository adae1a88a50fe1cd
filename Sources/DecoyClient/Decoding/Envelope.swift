/// Where a response's value sits inside its JSON document.
enum Envelope: Sendable, Hashable {
    /// The whole document is the value.
    case whole
    /// The value is under these keys, outermost first, as in `["data", "people"]`.
    case rootKeys([String])
    /// The document is an object with a single key, whatever its name, and the value is under
    /// it; when the object has more keys, the value is under `otherwise`.
    case singleKey(otherwise: String?)
}
