import Decoy

/// A stub read from a file and compiled, ready to register.
struct StubDefinition {
    let pattern: RequestPattern
    let stub: any Stub
    /// How reports show it.
    let loaded: LoadedStub
    /// The stub's fields as JSON members, `id` left out, for the admin API to show it by.
    let members: String

    /// The stub's document as the admin API shows it, with `id` first.
    func json(id: String) -> String {
        StubMappingJSON.document(id: id, members: members)
    }
}
