/// A stub of a stubs folder that was not loaded, and why: the other stubs serve without it.
///
/// A request that only it would have matched is answered with a `404` that names its file and
/// the first reason, as the closest route: the registry keeps the stubs its folder refused beside
/// its table, consulted only for a request nothing matched.
public struct RefusedStub: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the stubs folder.
    public let file: String
    /// The line where the stub starts, or where the file could not be read further.
    public let line: Int
    /// The route its `request` describes, when that part of it could be read.
    public let route: Route?
    /// Every problem found in it, in the order of the file.
    public let errors: [StubFileDiagnostic]
    /// What a request it would have matched fits: its route, compiled; `nil` without one.
    let pattern: RequestPattern?

    package init(file: String, line: Int, route: Route?, errors: [StubFileDiagnostic]) {
        (self.file, self.line, self.route, self.errors) = (file, line, route, errors)
        pattern = route.flatMap { try? RequestPattern($0) }
    }

    /// The first problem, its field and what is wrong.
    package var reason: String {
        errors.first.map { [$0.field, $0.message].filter { !$0.isEmpty }.joined(separator: ": ") } ?? ""
    }

    /// `file:line: refused: ` and the first problem, then how many more.
    public var description: String {
        let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
        return "\(file):\(line): refused: \(reason)\(more)"
    }

    /// The near miss that names the refused stub, for a request it matches.
    func nearMiss(for request: StubRequest) -> NearMiss? {
        guard let pattern, pattern.matches(request) else { return nil }
        return NearMiss(
            route: pattern.route, reason: "would match, but the stub at \(file):\(line) was refused: \(reason)")
    }

    /// Refused stubs are equal when they are the same stub with the same problems; the pattern
    /// is made from the route.
    public static func == (lhs: RefusedStub, rhs: RefusedStub) -> Bool {
        (lhs.file, lhs.line, lhs.route, lhs.errors) == (rhs.file, rhs.line, rhs.route, rhs.errors)
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(line)
        hasher.combine(route)
        hasher.combine(errors)
    }
}
