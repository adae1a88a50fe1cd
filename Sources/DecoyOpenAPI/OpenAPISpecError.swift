/// Why an OpenAPI document could not be used, with the place in it.
public struct OpenAPISpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The document, as given when it was read: its file name, or the name passed with its data.
    public let source: String
    /// Where in the document: a coding path such as `.paths['/users'].get.responses`, a line and
    /// column, or `nil` when the whole document is meant.
    public let place: String?
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(source: String, place: String?, reason: String) {
        self.source = source
        self.place = place
        self.reason = reason
    }

    /// `users.yaml, at .paths['/users'].get: reason`.
    public var description: String {
        if let place { "\(source), at \(place): \(reason)" } else { "\(source): \(reason)" }
    }
}
