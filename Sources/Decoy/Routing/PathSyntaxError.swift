/// Why a JSON path or an XPath cannot be parsed, in words that follow the expression in messages.
struct PathSyntaxError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
