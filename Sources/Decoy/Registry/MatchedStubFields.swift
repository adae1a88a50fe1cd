package import HTTPTypes

extension HTTPField.Name {
    /// The id of the stub that answered, on every answer of a stub from a file or the admin API,
    /// as WireMock sends it; made for the registration, so a mapping never holds it.
    package static let matchedStubID = HTTPField.Name("Matched-Stub-Id")!
    /// The name of the stub that answered, when it has one.
    package static let matchedStubName = HTTPField.Name("Matched-Stub-Name")!
}
