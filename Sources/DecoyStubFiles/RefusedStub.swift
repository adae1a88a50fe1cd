public import Decoy

/// A stub of a stubs folder that was not loaded, and why: the other stubs serve without it.
///
/// A request that only it would have matched is answered with a `404` that names its file and
/// the first reason, as the closest route.
public struct RefusedStub: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the stubs folder.
    public let file: String
    /// The line where the stub starts, or where the file could not be read further.
    public let line: Int
    /// The route its `request` describes, when that part of it could be read.
    public let route: Route?
    /// Every problem found in it, in the order of the file.
    public let errors: [StubFileDiagnostic]

    /// The first problem, its field and what is wrong.
    var reason: String {
        errors.first.map { [$0.field, $0.message].filter { !$0.isEmpty }.joined(separator: ": ") } ?? ""
    }

    /// `file:line: refused: ` and the first problem, then how many more.
    public var description: String {
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        return "\(file):\(line): refused: \(reason)\(more)"
    }
}
