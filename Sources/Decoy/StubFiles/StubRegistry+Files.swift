public import Foundation

extension StubRegistry {
    /// Registers every stub in the stubs folder at `folder`, all or nothing.
    ///
    /// Every file is read and checked before anything is registered: when any file has an
    /// error, nothing is, and the error lists every problem in the folder.
    ///
    /// ```swift
    /// let report = try registry.load(folder: stubsURL)
    /// for stub in report.stubs { print(stub) }
    /// ```
    @discardableResult
    public func load(folder: URL) throws(StubFolderError) -> StubFolderReport {
        try register(StubFolder(url: folder), replacing: false)
    }

    /// Replaces the stubs earlier loads and reloads registered with those in `folder`, in one
    /// step; stubs registered in code stay. When the folder has an error, the stubs loaded
    /// before stay and the error lists every problem, so a server watching the folder keeps
    /// serving while a file is being fixed.
    @discardableResult
    public func reload(folder: URL) throws(StubFolderError) -> StubFolderReport {
        try register(StubFolder(url: folder), replacing: true)
    }

    private func register(_ folder: StubFolder, replacing: Bool) throws(StubFolderError) -> StubFolderReport {
        let (definitions, report) = folder.compile()
        guard report.isValid else { throw StubFolderError(errors: report.errors, warnings: report.warnings) }
        let ids = definitions.map { $0.loaded.id ?? UUID().uuidString.lowercased() }
        // At once, so that no request sees some of the folder's stubs and not others.
        let handles = contents.withLock { contents in
            if replacing { contents.removeFileStubs() }
            contents.folder = folder.url
            return zip(definitions, ids).map { definition, id in
                contents.insert(
                    definition.route, stub: scenarioAware(definition.stub, for: definition.route.route), id: id,
                    origin: .file(definition.loaded), json: definition.json(id: id)
                ).handle
            }
        }
        let stubs = zip(report.stubs, handles).map { $0.registered(as: $1) }
        return StubFolderReport(stubs: stubs, errors: [], warnings: report.warnings)
    }
}
