import Decoy
import Yams

/// The errors and warnings found in one stub file, collected as the file is decoded.
final class DiagnosticLog {
    /// The file, relative to the stubs folder.
    let file: String
    private(set) var errors: [StubFileDiagnostic] = []
    /// What was read but is not acted on, or was read leniently; each kind once per file.
    private(set) var warnings: [StubFileDiagnostic] = []
    private var warned: Set<String> = []

    init(file: String) { self.file = file }

    func error(_ message: String, field: String = "", at mark: (line: Int, column: Int)? = nil) {
        errors.append(
            StubFileDiagnostic(file: file, line: mark?.line, column: mark?.column, field: field, message: message))
    }

    /// Notes a warning, unless one of the same `kind` was noted in this file already; a `nil`
    /// kind is noted every time.
    func warning(_ message: String, field: String = "", at mark: (line: Int, column: Int)? = nil, kind: String? = nil) {
        if let kind, !warned.insert(kind).inserted { return }
        warnings.append(
            StubFileDiagnostic(file: file, line: mark?.line, column: mark?.column, field: field, message: message))
    }
}

extension DiagnosticLog {
    /// Logs a parse error where the parser stopped.
    func error(_ error: YamlError, isJSON: Bool) {
        let language = isJSON ? "JSON" : "YAML"
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            // The context says what the parser was in, such as "while parsing a flow mapping", and where that began.
            let within =
                context.map {
                    " \($0.text)" + ($0.mark.line == mark.line ? "" : " that starts on line \($0.mark.line)")
                } ?? ""
            self.error("not valid \(language): \(problem)\(within)", at: (mark.line, mark.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            self.error(
                "duplicate keys \(duplicates.joined(separator: ", "))", at: (context.mark.line, context.mark.column))
        default:
            self.error("not valid \(language): \(error)")
        }
    }
}
