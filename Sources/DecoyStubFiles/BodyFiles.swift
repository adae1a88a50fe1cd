import Decoy
import Foundation

/// Finds and reads the files `bodyFileName` names, never outside the stubs folder.
///
/// A name is looked up in `__files/` at the folder's root, as WireMock does, then next to the
/// stub file. A name that climbs out of the folder, an absolute path, or a path that a symbolic
/// link leads out of the folder is refused before anything is read. Each file is read once
/// per load, however many stubs name it.
final class BodyFiles {
    /// The stubs folder, its symbolic links resolved; `nil` when there is none, as for a stub
    /// sent to the admin API of a server that loaded no folder.
    private let root: String?
    private var bodies: [String: Data] = [:]

    init(root: String?) { self.root = root }

    /// The contents of the file `name`, for the stub file at `stubFile` (relative to the
    /// folder); `nil` after logging why there is none at `node`.
    func body(named name: String, forStubFile stubFile: String, at node: FileNode) -> Data? {
        guard !name.hasPrefix("/") else {
            node.error("\"\(name)\" is an absolute path; name the file relative to __files/ or to the stub file")
            return nil
        }
        guard let root else {
            node.error("there is no stubs folder to find \"\(name)\" in; send the body inline, or load a stubs folder")
            return nil
        }
        let stubFolder = stubFile.split(separator: "/").dropLast().joined(separator: "/")
        for base in ["__files", stubFolder] {
            guard let relative = Self.normalized(base + "/" + name) else { return outside(name, at: node) }
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            guard URL(filePath: path).resolvingSymlinksInPath().path.hasPrefix(root + "/") else { return outside(name, at: node) }
            if let body = bodies[path] { return body }
            do {
                let body = try Data(contentsOf: URL(filePath: path))
                bodies[path] = body
                return body
            } catch {
                node.error("\"\(name)\" could not be read: \(error.localizedDescription)")
                return nil
            }
        }
        node.error("no file \"\(name)\" in __files/ or next to the stub file")
        return nil
    }

    private func outside(_ name: String, at node: FileNode) -> Data? {
        node.error("\"\(name)\" resolves outside the stubs folder; a body file must be inside it")
        return nil
    }

    /// `path`, relative to the folder, with `.` and `..` worked out by name alone; `nil` when it climbs out.
    private static func normalized(_ path: String) -> String? {
        var kept: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component != ".." {
                kept.append(component)
            } else if kept.popLast() == nil {
                return nil
            }
        }
        return kept.joined(separator: "/")
    }
}
