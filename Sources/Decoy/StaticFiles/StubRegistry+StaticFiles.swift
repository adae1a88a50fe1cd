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
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int ?? 0
        guard size <= Self.maximumStaticFileSize else {
            return StubResponse(
                status: .internalServerError,
                text: "\(name) has \(size) bytes; Decoy serves files of __files/ of at most "
                    + "\(Self.maximumStaticFileSize / 1024 / 1024) MiB\n")
        }
        guard let body = FileManager.default.contents(atPath: path) else {
            return StubResponse(status: .internalServerError, text: "\(name) could not be read\n")
        }
        // The fields and answers WireMock 2.35.1's Jetty gives a static file, in its order.
        var fields: HTTPFields = [.contentType: MediaType.ofStaticFile((path as NSString).pathExtension)]
        let modified = attributes?[.modificationDate] as? Date
        if let modified, let since = request.headerFields[.ifModifiedSince].flatMap(HTTPDate.parse),
            modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        {
            return StubResponse(status: .notModified, headerFields: fields)
        }
        if let modified { fields[.lastModified] = HTTPDate.format(modified) }
        fields[.acceptRanges] = "bytes"
        switch request.headerFields[.range].map({ Self.byteRange($0, of: body.count) }) {
        case .some(.satisfiable(let range)):
            fields[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(body.count)"
            return StubResponse(status: .partialContent, headerFields: fields, body: body.subdata(in: range))
        case .some(.unsatisfiable):
            fields[.contentRange] = "bytes */\(body.count)"
            return StubResponse(status: .rangeNotSatisfiable, headerFields: fields)
        case .some(.whole), nil:
            return StubResponse(headerFields: fields, body: body)
        }
    }

    /// What a `Range` field asks of a body of `size` bytes.
    enum ByteRange: Equatable {
        case satisfiable(Range<Int>)
        /// A range of bytes the body does not have: `416`.
        case unsatisfiable
        /// The whole body: the field is not one range of bytes (several ranges, another unit, a
        /// malformed value), which a server may ignore (RFC 9110 §14.2).
        case whole
    }

    /// The one range of bytes `field` asks for, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`.
    static func byteRange(_ field: String, of size: Int) -> ByteRange {
        guard field.lowercased().hasPrefix("bytes="), !field.contains(",") else { return .whole }
        let spec = field.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return .whole }
        let first = Int(bounds[0])
        let last = Int(bounds[1])
        switch (bounds[0].isEmpty, bounds[1].isEmpty) {
        case (true, false):
            guard let suffix = last, suffix >= 0 else { return .whole }
            return suffix == 0 || size == 0 ? .unsatisfiable : .satisfiable(max(0, size - suffix)..<size)
        case (false, _):
            guard let first, first >= 0, bounds[1].isEmpty || (last ?? -1) >= first else { return .whole }
            guard first < size else { return .unsatisfiable }
            return .satisfiable(first..<min(size, (last ?? size - 1) + 1))
        case (true, true):
            return .whole
        }
    }
}
