/// A stub read from a file and compiled, ready to register.
struct StubDefinition {
    let route: CompiledRoute
    let stub: any Stub
    /// How reports show it.
    let loaded: LoadedStub
}
