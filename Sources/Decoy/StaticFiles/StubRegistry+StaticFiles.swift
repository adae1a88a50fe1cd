import DecoyClient
import Foundation
import HTTPTypes

extension StubRegistry {
    /// The most bytes a file of `__files/` served statically may have: it is read whole, per request.
    package static let maximumStaticFileSize = 16 * 1024 * 1024

    /// The file of the loaded folder's `__files/` that answers `request` when no stub does, as
    /// WireMock serves it: a `GET` for `/docs/a.json` gets `__files/docs/a.json`, and one for a
    /// folder its `index.json` or `index.html`, and a folder without one `403`. Read per request, so
    /// a file added while serving is served; `nil` when there is no such file inside `__files/`.
    func staticFile(for request: StubRequest) -> StubResponse? {
        guard request.method == .get, let root = contents.withLock(\.staticFilesRoot) else { return nil }
        // Worked out inside __files/, so that `..` cannot leave it.
        guard let relative = FolderPath.normalized(request.path) else { return nil }
        var path = relative.isEmpty ? root : root + "/" + relative
        var entry = FolderPath.entry(at: path)
        if entry.isFolder {
            guard
                let index = ["index.json", "index.html"].first(where: { FolderPath.entry(at: path + "/" + $0).exists })
            else {
                guard path != root, FolderPath.isInside(path, folder: root) else { return nil }
                return StubResponse(
                    status: .forbidden, text: "__files/\(relative) is a folder with no index.json or index.html\n")
            }
            path += "/" + index
            entry = FolderPath.entry(at: path)
        }
        guard entry.exists, !entry.isFolder, FolderPath.isInside(path, folder: root) else { return nil }
        let name = "__files/" + path.dropFirst(root.count + 1)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= Self.maximumStaticFileSize else {
            return StubResponse(
                status: .internalServerError,
                text: "\(name) has \(size) bytes; Decoy serves files of __files/ of at most "
                    + "\(Self.maximumStaticFileSize / 1024 / 1024) MiB\n")
        }
        guard let body = FileManager.default.contents(atPath: path) else {
            return StubResponse(status: .internalServerError, text: "\(name) could not be read\n")
        }
        return StubResponse(
            headerFields: [.contentType: MediaType.ofStaticFile((path as NSString).pathExtension)], body: body)
    }
}
