/// The errors and warnings found in one stub file, collected as the file is decoded.
final class DiagnosticLog {
    /// The file, relative to the stubs folder.
    let file: String
    private(set) var errors: [StubFileDiagnostic] = []
    private(set) var warnings: [StubFileDiagnostic] = []

    init(file: String) { self.file = file }

    func error(_ message: String, field: String = "", at mark: (line: Int, column: Int)? = nil) {
        errors.append(StubFileDiagnostic(file: file, line: mark?.line, column: mark?.column, field: field, message: message))
    }

    func warning(_ message: String, field: String, at mark: (line: Int, column: Int)?) {
        warnings.append(StubFileDiagnostic(file: file, line: mark?.line, column: mark?.column, field: field, message: message))
    }
}
