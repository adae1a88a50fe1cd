/// One stub defined in a stub file, as a report lists it.
package struct LoadedStub: Sendable, Hashable, CustomStringConvertible {
    /// The file, relative to the stubs folder.
    package let file: String
    /// The line in the file where the stub starts.
    package let line: Int
    /// The stub's `id` or `uuid`, when it has one.
    package let id: String?
    /// The stub's `name`, when it has one.
    package let name: String?
    /// The route it answers.
    package let route: Route
    /// The registration, once loaded into a registry; `nil` in a check.
    package let handle: StubHandle?

    package init(file: String, line: Int, id: String?, name: String?, route: Route, handle: StubHandle?) {
        (self.file, self.line, self.id, self.name, self.route, self.handle) = (file, line, id, name, route, handle)
    }

    /// `file:line: route`, then the name in quotes when there is one.
    package var description: String {
        "\(file):\(line): \(route)" + (name.map { " \"\($0)\"" } ?? "")
    }

    package func registered(as handle: StubHandle) -> LoadedStub {
        LoadedStub(file: file, line: line, id: id, name: name, route: route, handle: handle)
    }
}
