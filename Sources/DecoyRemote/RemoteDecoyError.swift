/// A server's refusal of an admin request, with each problem it named.
public struct RemoteDecoyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem, as the server's `errors[]` gives it.
    public struct Problem: Sendable, Hashable {
        /// What is wrong: the error's `title`.
        public let title: String
        /// The field it is about, as a JSON pointer such as `/response/status`; `nil` when the
        /// problem is about the whole request.
        public let pointer: String?
    }

    /// The request refused, such as `POST /__admin/mappings`.
    public let request: String
    /// The status the server answered with.
    public let status: Int
    /// The problems the server named; one holding the body as it came when it was not WireMock's error shape.
    public let problems: [Problem]

    /// `POST /__admin/mappings: 422: /response/status: expected an integer 100…599`, one problem a line.
    public var description: String {
        let lines = problems.map { problem in "  " + (problem.pointer.map { "\($0): " } ?? "") + problem.title }
        return (["\(request) was refused with \(status):"] + lines).joined(separator: "\n")
    }
}
