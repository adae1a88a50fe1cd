/// Why a response template could not be parsed: where in it, and what is wrong.
///
/// Templates are parsed when a stub is made or loaded, so a malformed one never reaches a request.
public struct TemplateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the template, from 1.
    public let line: Int
    /// The column on that line, from 1, counted in characters.
    public let column: Int
    /// The helper concerned, when the problem is one helper's.
    public let helper: String?
    /// What is wrong, in words.
    public let reason: String

    /// Creates an error at `line` and `column`.
    public init(line: Int, column: Int, helper: String? = nil, reason: String) {
        self.line = line
        self.column = column
        self.helper = helper
        self.reason = reason
    }

    /// `line L, column C: reason`.
    public var description: String { "line \(line), column \(column): \(reason)" }
}
