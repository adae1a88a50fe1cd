import Decoy
import Foundation

/// Why a body file cannot be read.
enum BodyFileProblem: Error {
    /// Never to be read: a name outside the stubs folder, or with no folder to look in. The stub is refused.
    case refused(String)
    /// Not there to read: WireMock answers `500` for such a stub, each time it is asked.
    case unservable(String)

    var reason: String {
        switch self {
        case .refused(let reason), .unservable(let reason): reason
        }
    }
}

/// Finds and reads the files `bodyFileName` names, never outside the stubs folder.
///
/// A name is looked up in `__files/` at the folder's root, as WireMock does, then next to the stub
/// file. In a WireMock root (one with `mappings/`), a name that climbs out of the folder it is
/// looked up in is not served, as WireMock serves nothing from outside `__files/`. A name that
/// climbs out of the folder, an absolute path, or a path that a symbolic link leads out of the
/// folder is refused before anything is read. Each file is read once per load, however many
/// stubs name it.
final class BodyFiles {
    /// The stubs folder, its symbolic links resolved; `nil` when there is none, as for a stub
    /// sent to the admin API of a server that loaded no folder.
    private let root: String?
    private var bodies: [String: Data] = [:]

    init(root: String?) { self.root = root }

    /// The contents of the file `name`, for the stub file at `stubFile` (relative to the folder).
    func body(named name: String, forStubFile stubFile: String) -> Result<Data, BodyFileProblem> {
        let path: String
        switch Self.locate(name, root: root, stubFile: stubFile) {
        case .success(let found): path = found
        case .failure(let problem): return .failure(problem)
        }
        if let body = bodies[path] { return .success(body) }
        do {
            let body = try Data(contentsOf: URL(filePath: path))
            bodies[path] = body
            return .success(body)
        } catch {
            return .failure(.unservable("\"\(name)\" could not be read: \(error.localizedDescription)"))
        }
    }

    /// Reads the files a templated `bodyFileName` names per request, by the same rules.
    func reader(forStubFile stubFile: String) -> BodyFileReader {
        BodyFileReader(root: root, stubFile: stubFile)
    }

    /// Where the file `name` is, for the stub file at `stubFile`, or why it may not be read.
    static func locate(_ name: String, root: String?, stubFile: String) -> Result<String, BodyFileProblem> {
        guard !name.hasPrefix("/") else {
            return .failure(
                .refused("\"\(name)\" is an absolute path; name the file relative to __files/ or to the stub file"))
        }
        guard let root else {
            return .failure(
                .refused(
                    "there is no stubs folder to find \"\(name)\" in; send the body inline, or load a stubs folder"))
        }
        let outside = BodyFileProblem.refused(
            "\"\(name)\" resolves outside the stubs folder; a body file must be inside it")
        var isFolder: ObjCBool = false
        let isWireMockRoot =
            FileManager.default.fileExists(atPath: root + "/mappings", isDirectory: &isFolder) && isFolder.boolValue
        let stubFolder = stubFile.split(separator: "/").dropLast().joined(separator: "/")
        for base in ["__files", stubFolder] {
            guard let relative = FolderPath.normalized(base + "/" + name) else { return .failure(outside) }
            let path = root + "/" + relative
            let entry = FolderPath.entry(at: path)
            guard entry.exists, !entry.isFolder else { continue }
            guard FolderPath.isInside(path, folder: root) else { return .failure(outside) }
            if isWireMockRoot, !relative.hasPrefix(base + "/") {
                return .failure(
                    .unservable(
                        "\"\(name)\" resolves outside \(base)/; WireMock reads no body file from outside __files/"))
            }
            return .success(path)
        }
        return .failure(.unservable("no file \"\(name)\" in __files/ or next to the stub file"))
    }
}

/// Finds, reads and parses the body files a templated `bodyFileName` names, per request, by the
/// rules of ``BodyFiles``; each file's template is parsed once and kept.
struct BodyFileReader: Sendable {
    let root: String?
    let stubFile: String
    private let parsed = BoundedMemo<String, ResponseTemplate>(capacity: 256)

    init(root: String?, stubFile: String) {
        self.root = root
        self.stubFile = stubFile
    }

    /// The template in the file `name`.
    @Sendable func template(named name: String) throws(TemplateRenderError) -> ResponseTemplate {
        let path: String
        switch BodyFiles.locate(name, root: root, stubFile: stubFile) {
        case .success(let found): path = found
        case .failure(let problem): throw TemplateRenderError(problem.reason)
        }
        if let template = parsed[path] { return template }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TemplateRenderError("\"\(name)\" could not be read")
        }
        do {
            let template = try ResponseTemplate(String(decoding: data, as: UTF8.self))
            parsed.keep(template, for: path)
            return template
        } catch {
            throw TemplateRenderError("\"\(name)\" is a malformed template at \(error)")
        }
    }
}
