/// One stub defined in a stub file, as a stubs folder's report lists it: where it is and the
/// route it answers.
public struct LoadedStub: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the stubs folder.
    public let file: String
    /// The line in the file where the stub starts.
    public let line: Int
    /// The stub's `id` or `uuid`, when it has one.
    public let id: String?
    /// The stub's `name`, when it has one.
    public let name: String?
    /// The route it answers.
    public let route: Route
    /// The registration, once loaded into a registry; `nil` in a check.
    package let handle: StubHandle?

    package init(file: String, line: Int, id: String?, name: String?, route: Route, handle: StubHandle?) {
        (self.file, self.line, self.id, self.name, self.route, self.handle) = (file, line, id, name, route, handle)
    }

    /// `file:line: route`, then the name in quotes when there is one.
    public var description: String {
        "\(file):\(line): \(route)" + (name.map { " \"\($0)\"" } ?? "")
    }

    package func registered(as handle: StubHandle) -> LoadedStub {
        LoadedStub(file: file, line: line, id: id, name: name, route: route, handle: handle)
    }
}
