import Decoy

/// A stub read from a file and compiled, ready to register.
struct StubDefinition {
    /// The id it is registered under: its own, or one made for it.
    let id: String
    let pattern: RequestPattern
    let stub: any Stub
    /// How reports show it.
    let loaded: LoadedStub
    /// The stub's fields as JSON members, `id` left out, for the admin API to show it by.
    let members: String

    /// The stub's document as the admin API shows it, with `id` first.
    var json: String {
        StubMappingJSON.document(id: id, members: members)
    }
}
