public import Decoy
import DecoyClient
public import Foundation

extension StubRegistry {
    /// Registers every stub in the stubs folder at `folder` that is valid, and refuses each other
    /// one by name: the report lists them, with every problem, and a request that only a refused
    /// stub would have matched gets a `404` naming its file and why.
    ///
    /// With `strict`, as CI wants it, the folder loads all or nothing: when any file has an error,
    /// nothing is registered, and the error lists every problem in the folder.
    ///
    /// ```swift
    /// let report = try registry.load(folder: stubsURL)
    /// print(report)
    /// ```
    ///
    /// - Throws: when the folder cannot be read at all, or, with `strict`, has any error.
    @discardableResult
    public func load(folder: URL, strict: Bool = false) throws(DecoyError) -> StubFolderReport {
        try register(folder: folder, replacing: false, strict: strict)
    }

    /// Replaces the stubs earlier loads and reloads registered with those in `folder`, in one
    /// step; stubs registered in code stay. A file with a problem keeps the stubs its previous
    /// version registered serving, so a server watching the folder goes on while it is fixed;
    /// the report lists what it refused. With `strict`, a folder with any error changes nothing.
    ///
    /// - Throws: when the folder cannot be read at all, or, with `strict`, has any error.
    @discardableResult
    public func reload(folder: URL, strict: Bool = false) throws(DecoyError) -> StubFolderReport {
        try register(folder: folder, replacing: true, strict: strict)
    }

    /// Writes the stubs added through the admin API into the stubs folder loaded last, one file
    /// each under `mappings/`, and serves them from there, so that a reset keeps them: WireMock's
    /// `saveMappings`.
    ///
    /// - Returns: the files written.
    /// - Throws: when no folder was loaded, a file cannot be written, or the folder no longer loads.
    @discardableResult
    public func saveMappings() throws(DecoyError) -> [URL] {
        let (folder, added) = contents.withLock { ($0.folder, $0.mappings.filter { $0.origin == .adminAPI }) }
        guard let folder else {
            throw DecoyError.invalidStubFiles([
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
                throw DecoyError.invalidStubFiles([
                    StubFileDiagnostic(file: file.path, message: "cannot be written: \(error.localizedDescription)")
                ])
            }
            written.append(file)
        }
        try reload(folder: folder)
        return written
    }

    /// Reads and checks every stub file in `folder` as ``load(folder:strict:)`` would, with this
    /// registry's templating, `Content-Type` and webhook settings, and registers nothing: what
    /// `decoy check` runs. The folder is valid when the report has no errors.
    public func check(folder: URL) -> StubFolderReport {
        stubFolder(folder).check()
    }

    /// The folder at `url`, read as this registry reads stub-file documents.
    private func stubFolder(_ url: URL) -> StubFolder {
        var folder = StubFolder(url: url)
        folder.options = documentContext.options
        return folder
    }

    private func register(folder url: URL, replacing: Bool, strict: Bool) throws(DecoyError) -> StubFolderReport {
        let folder = stubFolder(url)
        if let missing = folder.missing { throw DecoyError.invalidStubFiles([missing]) }
        let (compiled, messageStubs, report) = folder.compile()
        guard report.isValid || !strict else { throw DecoyError.invalidStubFiles(report.errors) }
        let broken = Set(report.refused.map(\.file))
        // At once, so that no request sees some of the folder's stubs and not others.
        let (handles, keptStubs) = contents.withLock { contents in
            // On a reload, a broken file that served before keeps its previous stubs.
            let kept = replacing ? broken.intersection(contents.files) : []
            if replacing { contents.removeFileStubs(keeping: kept) }
            let keptStubs = contents.mappings.compactMap { mapping -> LoadedStub? in
                guard case .file(let stub) = mapping.origin, kept.contains(stub.file) else { return nil }
                return stub
            }
            contents.folder = folder.url
            contents.refused = report.refused
            contents.folderReport = FolderReportJSON(report, folder: folder.url)
            let handles = compiled.map { definition -> StubMapping? in
                guard !kept.contains(definition.loaded.file) else { return nil }
                return contents.insert(
                    definition.pattern, stub: scenarioAware(definition.stub, for: definition.pattern.route),
                    id: definition.id, origin: .file(definition.loaded), json: definition.json
                )
            }
            return (handles, keptStubs.sorted { ($0.file, $0.line) < ($1.file, $1.line) })
        }
        let stubs = zip(report.stubs, handles).compactMap { stub, handle in
            handle.map { stub.registered(as: $0.handle) }
        }
        self.messageStubs.replaceFileStubs(messageStubs)
        return StubFolderReport(
            stubs: stubs, kept: keptStubs, refused: report.refused, warnings: report.warnings,
            messageStubCount: messageStubs.count)
    }
}

/// A folder's report as `GET /__admin/stub-files` lists it.
struct FolderReportJSON: Encodable, Sendable {
    struct Refused: Encodable, Sendable {
        let file: String
        let line: Int
        /// The route its request describes, when that part could be read.
        let request: String?
        let errors: [StubFileDiagnostic]
    }

    let folder: String
    let stubs: Int
    let refused: [Refused]
    let warnings: [StubFileDiagnostic]

    init(_ report: StubFolderReport, folder: URL) {
        self.folder = folder.path
        stubs = report.stubs.count
        refused = report.refused.map {
            Refused(file: $0.file, line: $0.line, request: $0.route?.description, errors: $0.errors)
        }
        warnings = report.warnings
    }
}
