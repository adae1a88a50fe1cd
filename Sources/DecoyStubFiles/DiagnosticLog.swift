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
        errors.append(diagnostic(message, field: field, at: mark))
    }

    /// Notes a warning, unless one of the same `kind` was noted in this file already; a `nil`
    /// kind is noted every time.
    func warning(_ message: String, field: String = "", at mark: (line: Int, column: Int)? = nil, kind: String? = nil) {
        if let kind, !warned.insert(kind).inserted { return }
        warnings.append(diagnostic(message, field: field, at: mark))
    }

    /// A message or field may quote what the file holds, control characters too, which would
    /// reach a terminal as they are.
    private func diagnostic(_ message: String, field: String, at mark: (line: Int, column: Int)?) -> StubFileDiagnostic
    {
        StubFileDiagnostic(
            file: file, line: mark?.line, column: mark?.column, field: field.controlCharactersEscaped,
            message: message.controlCharactersEscaped)
    }
}

extension DiagnosticLog {
    /// Logs a parse error where the parser stopped, in Decoy's words rather than libyaml's.
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
            // libyaml's own words for its depth limit name the C function that sets it.
            let said =
                problem.hasPrefix("Maximum nesting level reached")
                ? "nested more than 1000 levels deep; Decoy reads at most that many" : problem + within
            self.error("not valid \(language): \(said)", at: (mark.line, mark.column))
        case .reader(_, let offset, let value, let yaml):
            // libyaml's reader refuses a character the language allows nowhere in the text, and its
            // own message quotes the line, that character and all.
            let code = String(UInt32(bitPattern: value), radix: 16, uppercase: true).leftPadded(to: 4)
            let string = isJSON ? "a string" : "a double-quoted string"
            self.error(
                "not valid \(language): the character U+\(code) is not allowed; inside \(string), "
                    + "escape it as \\u\(code)",
                at: offset.map { Self.place(ofCharacter: $0, in: yaml) })
        case .duplicatedKeysInMapping(let duplicates, let context):
            self.error(
                "duplicate keys \(duplicates.joined(separator: ", "))", at: (context.mark.line, context.mark.column))
        default:
            self.error("not valid \(language): \(error)")
        }
    }

    /// The line and column, from 1, of the character at `offset` in `text`, as the parser counts them.
    private static func place(ofCharacter offset: Int, in text: String) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for character in text.prefix(offset) {
            if character.isNewline {
                (line, column) = (line + 1, 1)
            } else {
                column += 1
            }
        }
        return (line, column)
    }
}

extension String {
    /// Padded with leading zeros to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }

    /// With each control character written as a JSON escape (`\u0000`), so that a message quoting
    /// a file prints nothing a terminal would act on.
    var controlCharactersEscaped: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isControl {
                escaped += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    /// C0 and C1 controls and DEL.
    fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
