/// A server's refusal of an admin request, with each problem it named.
public struct RemoteDecoyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The request refused, such as `POST /__admin/mappings`.
    public let request: String
    /// The status the server answered with.
    public let status: Int
    /// The problems the server named, each its `title`, after the JSON pointer of the field it is
    /// about and `: ` when it names one (`/response/status: expected an integer 100…599`); one
    /// holding the body as it came when it was not WireMock's error shape.
    public let problems: [String]

    /// `POST /__admin/mappings: 422: /response/status: expected an integer 100…599`, one problem a line.
    public var description: String {
        let lines = problems.map { "  " + $0 }
        return (["\(request) was refused with \(status):"] + lines).joined(separator: "\n")
    }
}
