public import Decoy
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
    public func load(folder: URL) throws(StubFileError) -> StubFolderReport {
        try register(
            StubFolder(
                url: folder, templatesEveryResponse: templatesEveryResponse, webhookAllowedHosts: webhookAllowedHosts),
            replacing: false)
    }

    /// Replaces the stubs earlier loads and reloads registered with those in `folder`, in one
    /// step; stubs registered in code stay. When the folder has an error, the stubs loaded
    /// before stay and the error lists every problem, so a server watching the folder keeps
    /// serving while a file is being fixed.
    @discardableResult
    public func reload(folder: URL) throws(StubFileError) -> StubFolderReport {
        try register(
            StubFolder(
                url: folder, templatesEveryResponse: templatesEveryResponse, webhookAllowedHosts: webhookAllowedHosts),
            replacing: true)
    }

    /// Writes the stubs added through the admin API into the stubs folder loaded last, one file
    /// each under `mappings/`, and serves them from there, so that a reset keeps them: WireMock's
    /// `saveMappings`.
    ///
    /// - Returns: the files written.
    /// - Throws: when no folder was loaded, a file cannot be written, or the folder no longer loads.
    @discardableResult
    public func saveMappings() throws(StubFileError) -> [URL] {
        let (folder, added) = contents.withLock { ($0.folder, $0.mappings.filter { $0.origin == .adminAPI }) }
        guard let folder else {
            throw StubFileError(errors: [
                StubFileDiagnostic(file: "stubs folder", message: "no stubs folder was loaded to save the stubs into")
            ])
        }
        let mappings = folder.appending(path: "mappings", directoryHint: .isDirectory)
        var written: [URL] = []
        for mapping in added {
            let file = mappings.appending(path: "saved-\(mapping.id).json")
            do {
                try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
                try Data(mapping.json.utf8).write(to: file, options: .atomic)
            } catch {
                throw StubFileError(errors: [
                    StubFileDiagnostic(file: file.path, message: "cannot be written: \(error.localizedDescription)")
                ])
            }
            written.append(file)
        }
        try reload(folder: folder)
        return written
    }

    private func register(_ folder: StubFolder, replacing: Bool) throws(StubFileError) -> StubFolderReport {
        let (definitions, report) = folder.compile()
        guard report.isValid else { throw StubFileError(errors: report.errors) }
        let ids = definitions.map { $0.loaded.id ?? UUID().uuidString.lowercased() }
        // At once, so that no request sees some of the folder's stubs and not others.
        let handles = contents.withLock { contents in
            if replacing { contents.removeFileStubs() }
            contents.folder = folder.url
            return zip(definitions, ids).map { definition, id in
                contents.insert(
                    definition.pattern, stub: scenarioAware(definition.stub, for: definition.pattern.route), id: id,
                    origin: .file(definition.loaded), json: definition.json(id: id)
                ).handle
            }
        }
        let stubs = zip(report.stubs, handles).map { $0.registered(as: $1) }
        return StubFolderReport(stubs: stubs, errors: [])
    }
}
