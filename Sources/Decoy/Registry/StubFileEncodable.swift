/// A kind of stub as a stub file writes it. Each kind says its own fields, so the encoder names
/// no kind: a new kind is written once it conforms (the built-in kinds conform in
/// `StubEncoder+Kinds.swift`), and read once `DecoyStubFiles`' table of kinds (`StubFileKind`)
/// has it. A stub of a kind that does not conform is Swift code, which a stub file cannot hold.
package protocol StubFileEncodable: Stub {
    /// The fields the stub adds to its mapping as a stub's whole answer: `response`, or
    /// `responses` with `mode`, `when` with `else`, `failureRate` …; what a stub file cannot say
    /// is refused, never approximated.
    func stubFileMembers() throws(DecoyError) -> [String: JSONValue]

    /// The stub as one response of a list, a condition or a failure, where a stub file has
    /// responses only; `nil` for a kind that is more than a response.
    func stubFileResponse() throws(DecoyError) -> JSONValue?
}

extension StubFileEncodable {
    /// More than a response, by default.
    package func stubFileResponse() throws(DecoyError) -> JSONValue? { nil }
}
