/// One problem found in a stubs folder: where it is, which field, and what is wrong.
///
/// Its description reads like a compiler's, so editors and terminals can link to the place:
/// `users.yaml:12:5: response.status: expected an integer 100…599, found "ok"`.
public struct StubFileDiagnostic: Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The file, relative to the stubs folder; empty when the problem is with the folder itself.
    public let file: String
    /// The line, from 1, when known.
    public let line: Int?
    /// The column, from 1, when known.
    public let column: Int?
    /// The field's path in the file, such as `response.status` or `mappings[2].request.url`; empty for the whole file.
    public let field: String
    /// What is wrong, and what was expected.
    public let message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int? = nil, column: Int? = nil, field: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `file:line:column: field: message`, leaving out what is unknown.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return [place, field, message].filter { !$0.isEmpty }.joined(separator: ": ")
    }
}
